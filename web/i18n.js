// Chinese and English strings. The default follows the browser; the choice is kept.
const STRINGS = {
  en: {
    lobby: 'Lobby', rules: 'Rules', login: 'Log in', register: 'Register', logout: 'Log out',
    username: 'Username', password: 'Password', create: 'Create game', game: 'Game',
    target: 'Target score', minutes: 'Minutes', increment: 'Increment (s)', opponent: 'Opponent',
    open_seat: 'Open seat (a person)', ai_level: 'AI level', rated: 'Rated', open_rooms: 'Open rooms',
    in_play: 'Games in play', join: 'Join', watch: 'Watch', none: 'None yet', red: 'Red', black: 'Black',
    waiting: 'Waiting for an opponent…', your_turn: 'Your move', their_turn: "Opponent's move",
    resign: 'Resign', offer_draw: 'Offer draw', accept_draw: 'Accept draw', decline_draw: 'Decline',
    claim: 'Claim draw (move limit)', pass: 'Pass', rematch: 'Rematch', pgn: 'Download PGN', flip: 'Flip',
    draw_offered: 'Draw offered', score: 'Score', second_move: 'Second move of a double turn (or pass)',
    result_red: 'Red wins', result_black: 'Black wins', result_draw: 'Draw', moves: 'Moves',
    choose_class: 'Class after the move', keep: 'Keep class', normal: 'Normal', small: 'Small',
    royal: 'Royal', idle: 'Idle', profile: 'Profile', history: 'Games', guest: 'guest',
    replay: 'Replay', spectator: 'Watching', vs: 'vs', rematch_offered: 'Rematch offered',
    'xiangqi': 'Xiangqi', 'jifen-simple': 'Jifen (simple)', 'jifen-match': 'Jifen (match)', 'jifen-contest': 'Jifen (contest)',
    rules_text: `<h3>Xiangqi</h3><p>Red moves first. Generals stay in the palace and may never face each other on an open file. Checkmate or stalemate loses. Perpetual check or chase loses; other repetitions are drawn. 120 plies without a capture let either player claim a draw; 300 draw automatically. A flag fall loses unless the opponent cannot mate.</p>
<h3>Jifen Xiangqi (积分象棋)</h3><p>Every piece also has a class: <b>Normal</b> (full size), <b>Small</b> (smaller disc, cannot take Small pieces), <b>Royal</b> (gold ring, must be protected like the general; contest rules) and <b>Idle</b> (hollow, captures nothing). After a move you may change the moved piece's class. Moves score points by the class of the piece that moved (simple: Idle +1, a check −1; match: Normal gives the opponent +1, Idle +1, a check gives the opponent +2; contest: Normal gives the opponent +1, Royal and Idle +1). Reaching the target score wins at once. Contest rules: until the first capture a turn may be two moves (or one and a pass); a capture or check ends the turn.</p>`,
  },
  zh: {
    lobby: '大厅', rules: '规则', login: '登录', register: '注册', logout: '退出',
    username: '用户名', password: '密码', create: '创建对局', game: '棋种',
    target: '目标积分', minutes: '分钟', increment: '每步加秒', opponent: '对手',
    open_seat: '空位（等人）', ai_level: '电脑级别', rated: '计分', open_rooms: '等待中的房间',
    in_play: '进行中的对局', join: '加入', watch: '观战', none: '暂无', red: '红方', black: '黑方',
    waiting: '等待对手…', your_turn: '轮到你走', their_turn: '对方走棋',
    resign: '认输', offer_draw: '提和', accept_draw: '同意和棋', decline_draw: '拒绝',
    claim: '自然限着提和', pass: '停着', rematch: '再来一局', pgn: '下载PGN', flip: '翻转',
    draw_offered: '对方提和', score: '积分', second_move: '双步回合第二步（或停着）',
    result_red: '红胜', result_black: '黑胜', result_draw: '和棋', moves: '着法',
    choose_class: '走后棋子类别', keep: '不变', normal: '普通', small: '小', royal: '王', idle: '闲',
    profile: '个人资料', history: '对局', guest: '游客',
    replay: '复盘', spectator: '观战中', vs: '对', rematch_offered: '对方请求再来一局',
    'xiangqi': '中国象棋', 'jifen-simple': '积分象棋（简易）', 'jifen-match': '积分象棋（比赛）', 'jifen-contest': '积分象棋（竞技）',
    rules_text: `<h3>中国象棋</h3><p>红方先走。将帅不出九宫，不得照面。将死或困毙判负。长将、长捉判负，其余循环判和。连续120着无吃子可提和，300着自动和棋。超时判负，但对方无子可胜时判和。</p>
<h3>积分象棋</h3><p>每个棋子另有类别：<b>普通</b>（大子）、<b>小</b>（较小圆盘，不能吃小子）、<b>王</b>（金圈，须像将帅一样保护；竞技规则）、<b>闲</b>（空心，不能吃子）。走子后可改变该子类别。按走动棋子的类别计分（简易：闲子+1，将军−1；比赛：普通子对方+1，闲子+1，将军对方+2；竞技：普通子对方+1，王子、闲子+1）。积分先达到目标者立即获胜。竞技规则：首次吃子前每回合可走两步（或一步加停着），吃子或将军结束回合。</p>`,
  },
};

let lang = localStorage.getItem('qy-lang') || ((navigator.language || 'en').toLowerCase().startsWith('zh') ? 'zh' : 'en');

/** The current language code. */
export function getLang() { return lang; }

/** Switches the language and remembers it. */
export function setLang(l) { lang = l; localStorage.setItem('qy-lang', l); document.documentElement.lang = l === 'zh' ? 'zh-CN' : 'en'; }

/** The string for `key` in the current language. */
export function t(key) { return (STRINGS[lang] && STRINGS[lang][key]) || STRINGS.en[key] || key; }

/** Fills every element with data-i18n. */
export function applyStatic(root = document) {
  root.querySelectorAll('[data-i18n]').forEach((el) => { el.textContent = t(el.dataset.i18n); });
}
