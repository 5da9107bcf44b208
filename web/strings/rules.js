// @ts-check
// The rules page, a section per game: each key once, in English and Chinese (see web/strings/glossary.js).
/** @type {Record<string, {en: string, zh: string}>} */
export default {
  rules_text: {
    en: `<h3>Xiangqi</h3><p>Red moves first. Generals stay in the palace and may never face each other on an open file. Checkmate or stalemate loses. Perpetual check or chase loses; other repetitions are drawn. 120 plies without a capture let either player claim a draw; 300 draw automatically. A flag fall loses unless the opponent cannot mate.</p>
<h3>Jifen Xiangqi (积分象棋)</h3><p>Every piece also has a class: <b>Normal</b> (full size), <b>Small</b> (smaller disc, cannot take Small pieces), <b>Royal</b> (gold ring, must be protected like the general; contest rules) and <b>Idle</b> (hollow, captures nothing). After a move you may change the moved piece's class. Moves score points by the class of the piece that moved (simple: Idle +1, a check −1; match: Normal gives the opponent +1, Idle +1, a check gives the opponent +2; contest: Normal gives the opponent +1, Royal and Idle +1). Reaching the target score wins at once. Contest rules: until the first capture a turn may be two moves (or one and a pass); a capture or check ends the turn.</p>
<h3>Banqi (flip chess, 翻翻棋)</h3><p>Played on half a Xiangqi board, 4 rows of 8 squares, with all 32 pieces shuffled face down; nobody, not even the server's page, knows a hidden piece until it is turned. A turn is one of: turn a hidden piece over, step one of your own face-up pieces to a neighbouring empty square (up, down, left or right), or capture. The first piece turned decides the colours: its colour goes to the player who turned it.</p>
<p>Pieces rank general, advisor, elephant, chariot, horse, cannon, soldier (high to low). A piece takes a neighbouring face-up enemy of lower rank; the one exception is that a soldier may take the general and the general may not take a soldier. Two pieces of the same rank both leave the board (in the ICGA rule set the capturer survives). The cannon steps like the others but takes only by jumping over exactly one piece along a row or column, onto a face-up enemy of any rank. Hidden pieces cannot be taken. Chasing the same piece more than ten times in a row is not allowed.</p>
<p>You lose when all your pieces are gone or you have nothing to do on your turn; after 300 plies the game is a draw. Resigning and offering a draw are possible from ply 40. <b>Clock:</b> 30 s a move. If your time for a move runs out, that turn is lost (nothing moves) and you get a <b>timeout mark</b>; the third mark loses the game.</p>`,
    zh: `<h3>中国象棋</h3><p>红方先走。将帅不出九宫，不得照面。将死或困毙判负。长将、长捉判负，其余循环判和。连续120着无吃子可求和，300着自动和棋。超时判负，但对方无子可胜时判和。</p>
<h3>积分象棋</h3><p>每个棋子另有类别：<b>普通</b>（大子）、<b>小</b>（较小圆盘，不能吃小子）、<b>王</b>（金圈，须像将帅一样保护；竞技规则）、<b>闲</b>（空心，不能吃子）。走子后可改变该子类别。按走动棋子的类别计分（简易：闲子+1，将军−1；比赛：普通子对方+1，闲子+1，将军对方+2；竞技：普通子对方+1，王子、闲子+1）。积分先达到目标者立即获胜。竞技规则：首次吃子前每回合可走两步（或一步加停着），吃子或将军结束回合。</p>
<h3>翻翻棋</h3><p>在半张象棋盘（4行8列）上进行，32枚棋子全部反扣、随机摆放；任何人（包括本页面）在棋子翻开之前都不知道它是什么。每一步可以：翻开一枚暗子；把己方一枚明子上下左右走一格到空位；或者吃子。第一枚翻开的棋子是什么颜色，翻它的人就执该色。</p>
<p>子力由大到小：帅（将）、仕（士）、相（象）、车、马、炮、兵（卒）。棋子可吃相邻的、比自己小的敌方明子；例外是兵卒可以吃将帅，将帅不能吃兵卒。同级互吃则两子同归于尽（ICGA 规则下吃子一方留下）。炮也只走一格，但吃子必须沿行或列隔一子跳吃，可吃任何大小的敌方明子。暗子不能被吃。不能连续十次以上追捉同一枚棋子。</p>
<p>棋子被吃光或轮到自己却无棋可走者判负；300步后仍未分胜负则为和棋。第40步起方可认输或求和。<b>用时：</b>每步30秒。超时者本步作废（棋盘不变，轮到对方），并记一次<b>超时</b>；第三次超时判负。</p>`,
  },
};
