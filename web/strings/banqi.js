// @ts-check
// Banqi (flip chess): each key once, in English and Chinese (see web/strings/glossary.js).
/** @type {Record<string, {en: string, zh: string}>} */
export default {
  resign_later: { en: 'Resigning and draw offers open at ply 40.', zh: '第40步起方可认输或求和。' },
  flip_move: { en: 'flip', zh: '翻' },
  timeout_marks_about: { en: 'A player whose 30 s for a move run out loses that turn and gets a mark; the third mark loses the game.', zh: '每步限时30秒，超时者本步作废并记一次超时，第三次超时判负。' },
  banqi: { en: 'Banqi (flip chess)', zh: '翻翻棋' },
  'banqi-icga': { en: 'Banqi (ICGA rules)', zh: '翻翻棋（ICGA 规则）' },
  captured: { en: 'Captured', zh: '被吃的棋子' },
  timeout_marks: { en: 'Timeout marks', zh: '超时次数' },
  banqi_points: { en: 'Banqi points', zh: '翻翻棋积分' },
};
