// eslint over the page's JavaScript (web/; run from the repository root, as
// run.sh does, for eslint lints nothing outside its base folder): the
// recommended rules and browser globals; the worker runs in a worker's scope.
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ...js.configs.recommended, files: ['web/**/*.js'] },
  {
    files: ['web/**/*.js'],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { ...globals.browser } },
    rules: {
      // `_x`: a parameter a hook's signature has and this hook does not need.
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  { files: ['web/engine-worker.js'], languageOptions: { globals: { ...globals.worker } } },
  // A classic script in <head> (it runs before the modules).
  { files: ['web/theme-boot.js'], languageOptions: { sourceType: 'script' } },
];
