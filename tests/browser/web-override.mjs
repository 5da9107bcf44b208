// For editing the page without rebuilding the binary (it embeds web/):
// with QIYUAN_WEB=path/to/web the browser is served the page's files from
// that folder instead of the binary's. Unset, nothing changes.
import { join, normalize } from 'node:path';

const WEB = process.env.QIYUAN_WEB;

/** Routes `ctx`'s requests for the page and its modules to QIYUAN_WEB. */
export async function serveWeb(ctx) {
  if (!WEB) return;
  await ctx.route((url) => url.pathname === '/' || url.pathname.startsWith('/static/'), (route) => {
    const path = new URL(route.request().url()).pathname;
    const name = path === '/' ? 'index.html' : normalize(decodeURIComponent(path.slice('/static/'.length)));
    if (name.startsWith('..')) return route.abort();
    return route.fulfill({ path: join(WEB, name), headers: { 'Cache-Control': 'no-cache' } });
  });
}

/** Browser flags the override needs: pages it serves may open sockets to loopback. */
export const webArgs = WEB ? ['--disable-features=LocalNetworkAccessChecks'] : [];
