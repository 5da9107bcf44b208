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
};
