// @ts-check
// Junqi: each key once, in English and Chinese (see web/strings/glossary.js).
/** @type {Record<string, {en: string, zh: string}>} */
export default {
  junqi: { en: 'Junqi (hidden)', zh: '军棋（暗棋）' },
  'junqi-open': { en: 'Junqi (open)', zh: '军棋（明棋）' },
  'junqi-flip': { en: 'Junqi (flip)', zh: '军棋（翻棋）' },
  result_blue: { en: 'Blue wins', zh: '蓝方胜' },
  setup_phase: { en: 'Set-up: click two of your pieces to swap them, then send it (or draw a random one)', zh: '布阵阶段：点击两枚己方棋子互换位置，然后提交（或随机布阵）' },
  send_setup: { en: 'Send this set-up', zh: '提交布阵' },
  blue: { en: 'Blue', zh: '蓝方' },
  jq_setup: { en: 'set-up', zh: '布阵' },
  jq_attacker_wins: { en: 'wins the clash', zh: '攻方胜' },
  jq_defender_wins: { en: 'loses the clash', zh: '攻方被吃' },
  jq_both_removed: { en: 'both removed', zh: '同归于尽' },
  jq_flag_taken: { en: 'takes the flag', zh: '夺得军旗' },
  'reason_flag-captured': { en: 'flag captured', zh: '夺得军旗' },
  jq_load: { en: 'Load', zh: '载入' },
  jq_save: { en: 'Save', zh: '保存' },
  jq_preset_name: { en: 'a name for it', zh: '布阵名称' },
  jq_on_timeout: { en: 'use it if my time runs out', zh: '超时未布阵时使用' },
  jq_saved: { en: 'Saved', zh: '已保存' },
  jq_loaded: { en: 'Loaded', zh: '已载入' },
  jq_planned: { en: 'Suggested set-up', zh: '推荐布阵' },
  random_setup: { en: 'Random set-up', zh: '随机布阵' },
};
