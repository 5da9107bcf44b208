// @ts-check
// The analysis board's extras (issue 39): the engine's view in the opening
// explorer and the position editor's Jifen contest fields.
export default {
  explorer_engine_on: { en: 'Engine’s view', zh: '引擎评估' },
  explorer_engine: { en: 'Engine', zh: '引擎' },
  explorer_engine_title: { en: 'The engine’s score after the move, for red (+ red is better)', zh: '走这步后引擎的评分，以红方计（正数红优）' },
  explorer_engine_best: { en: 'Engine’s best: {move} ({score}, depth {depth})', zh: '引擎最佳着法：{move}（{score}，深度 {depth}）' },
  explorer_engine_reply: { en: 'Engine’s reply: {move} (depth {depth})', zh: '引擎应着：{move}（深度 {depth}）' },
  explorer_engine_mark: { en: 'the engine’s best move', zh: '引擎最佳着法' },
  editor_state: { en: 'The game so far', zh: '对局状态' },
  editor_captured: { en: 'A piece has been captured', zh: '已发生过吃子' },
  editor_second: { en: 'Second move of a double turn', zh: '连走的第二步' },
  editor_move_number: { en: 'Move number', zh: '回合数' },
  editor_quiet_plies: { en: 'Moves without a capture or score change', zh: '未吃子且积分未变的步数' },
  fen_jifen_missing: { en: 'Pieces are missing, so a capture has happened: tick “A piece has been captured”.', zh: '棋盘上少了棋子，说明已经发生过吃子：请勾选“已发生过吃子”。' },
  fen_jifen_class_early: { en: 'In contest rules a piece changes class only from the first capture on: tick “A piece has been captured”.', zh: '竞技规则中首次吃子之后才能转换类别：请勾选“已发生过吃子”。' },
  fen_jifen_turn_one: { en: 'Red’s first turn is a single move: there is no second move at move 1.', zh: '红方第一回合只走一步：第 1 回合没有连走的第二步。' },
  fen_jifen_second_check: { en: 'On the second move of a double turn the side to move cannot be in check (its first move could not leave it so).', zh: '连走的第二步时走棋方不可能被将军（第一步不能送将）。' },
  fen_jifen_limit: { en: '{n} moves without a capture or score change: the game is already drawn.', zh: '已连续 {n} 步未吃子且积分未变，对局已判和。' },
};
