// @ts-check
// The Chinese words the page uses for the hall's recurring ideas, as the big
// Chinese apps (天天象棋, 腾讯/QQ游戏, lichess 中文) write them, so one idea has
// one name everywhere. `avoid` lists wordings that must not appear in any
// Chinese text of web/strings/ (tests/webcheck/i18n-complete.mjs checks it):
// word-for-word translations, another app's word for the same idea, or a
// word that means something else in these games.
/** @type {Record<string, {zh: string, avoid: string[]}>} */
export default {
  // Playing.
  'play the computer': { zh: '人机对战', avoid: ['和电脑下', '与电脑对弈', '对战电脑'] },
  'the computer as opponent': { zh: '电脑', avoid: ['人工智能', 'AI对手', 'AI 对手', '机器对手'] },
  'AI level': { zh: '电脑难度', avoid: ['电脑级别', 'AI级别', 'AI 级别'] },
  'a computer player of level n': { zh: '电脑 n级', avoid: ['电脑级别', '电脑第'] },
  'quick play (paired by the hall)': { zh: '快速开局', avoid: ['快速游戏', '快速对局'] },
  'matching with an opponent': { zh: '匹配', avoid: ['配对对手', '自动配对'] },
  'a seat waiting for a person': { zh: '等棋友加入', avoid: ['空位（等人）', '（等人）', '开放座位'] },
  'waiting for an opponent': { zh: '等待对手', avoid: ['等人中', '等候对手'] },
  'a room (a game waiting for players)': { zh: '房间', avoid: ['开放房间', '公开房间', '开放的房间'] },
  'the kind of game': { zh: '棋种', avoid: ['游戏类型', '棋类型', '游戏种类'] },
  'player (at the board)': { zh: '棋手', avoid: ['玩家'] },
  'guest': { zh: '游客', avoid: ['访客', '来宾'] },
  'lobby': { zh: '大厅', avoid: ['大堂'] },
  // Game modes.
  'rated': { zh: '排位', avoid: ['计分局', '不计分', '计分对局', '暂无计分', '积分赛'] },
  'casual': { zh: '休闲', avoid: ['非排位', '友谊赛', '不计等级分的对局'] },
  'event (tournament)': { zh: '比赛', avoid: ['赛事', '锦标赛'] },
  'team event': { zh: '团体赛', avoid: ['团队赛', '队际赛'] },
  'hidden Junqi': { zh: '暗棋', avoid: ['隐藏模式', '暗模式'] },
  'open Junqi': { zh: '明棋', avoid: ['公开模式', '明模式'] },
  'set-up (placing one\'s army)': { zh: '布阵', avoid: ['摆放阵型', '布局阶段', '排兵布阵阶段'] },
  // Clocks.
  'clock (time for a game)': { zh: '用时', avoid: ['时间控制', '时钟', '计时器'] },
  'seconds added each move': { zh: '每步加秒', avoid: ['增量', '步时增加', '加时'] },
  'time out': { zh: '超时', avoid: ['时间到了', '超出时间', '用完时间'] },
  // In the game.
  'resign': { zh: '认输', avoid: ['投降', '放弃对局'] },
  'offer a draw': { zh: '求和', avoid: ['提和', '提议和棋'] },
  'a draw (result)': { zh: '和棋', avoid: ['平局'] },
  'take back a move': { zh: '悔棋', avoid: ['撤销着法', '撤回着法', '撤销一步'] },
  'rematch': { zh: '再来一局', avoid: ['重赛', '再战'] },
  'turn the board round': { zh: '转换视角', avoid: ['翻转棋盘', '旋转棋盘'] },
  'move list': { zh: '棋谱', avoid: ['着法列表', '走子记录', '移动记录'] },
  'pass (no move)': { zh: '停着', avoid: ['跳过回合', '弃权一步'] },
  'watch': { zh: '观战', avoid: ['旁观'] },
  'review a game': { zh: '复盘', avoid: ['回放'] },
  'endgame puzzles': { zh: '残局', avoid: ['终局谜题', '残局谜题'] },
  // Results and rulings.
  'checkmate': { zh: '将死', avoid: ['被将死了'] },
  'stalemate (a loss in Xiangqi)': { zh: '困毙', avoid: ['逼和'] },
  'perpetual check': { zh: '长将', avoid: ['永久将军', '连续将军'] },
  'perpetual chase': { zh: '长捉', avoid: ['永久捉子', '连续捉子'] },
  'natural move limit': { zh: '自然限着', avoid: ['步数限制', '回合限制'] },
  // Standing.
  'rating': { zh: '等级分', avoid: ['Elo分', '积分等级'] },
  'leaderboard': { zh: '排行榜', avoid: ['排名榜'] },
  'red / black (the sides)': { zh: '红方', avoid: ['红色方', '黑色方'] },
};
