// @ts-check
// The Chinese words the page uses for the hall's recurring ideas, as the big
// Chinese apps (天天象棋, 腾讯/QQ游戏, lichess 中文) write them, so one idea has
// one name everywhere. `avoid` lists wordings that must not appear in any
// Chinese text of web/strings/ (tests/webcheck/i18n-complete.mjs checks it).
/** @type {Record<string, {zh: string, avoid: string[]}>} */
export default {
  'play the computer': { zh: '人机对战', avoid: ['和电脑下'] },
  'resign': { zh: '认输', avoid: ['投降'] },
  'offer a draw': { zh: '求和', avoid: ['提和'] },
  'take back a move': { zh: '悔棋', avoid: ['撤销着法'] },
  'endgame puzzles': { zh: '残局', avoid: [] },
  'review a game': { zh: '复盘', avoid: ['回放'] },
  'rated': { zh: '排位', avoid: ['计分局', '不计分'] },
  'casual': { zh: '休闲', avoid: [] },
  'rating': { zh: '等级分', avoid: [] },
  'move list': { zh: '棋谱', avoid: [] },
  'watch': { zh: '观战', avoid: [] },
  'rematch': { zh: '再来一局', avoid: [] },
  'checkmate': { zh: '将死', avoid: [] },
  'stalemate': { zh: '困毙', avoid: [] },
  'time out': { zh: '超时', avoid: [] },
};
