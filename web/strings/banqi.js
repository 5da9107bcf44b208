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
  bq_timed_out: { en: 'timed out', zh: '超时' },
  bq_resign_why: { en: 'Resigning and draw offers open at ply {n} ({left} more to go): a game is not given up in its first moves (B11).', zh: '第{n}步起才可认输或求和（还差{left}步）：开局阶段不能认输（B11）。' },
  bq_leave_cost: { en: 'If you leave now, the game goes on without you: each of your turns runs out after 30 s, and the third timeout loses the game (B12). Lost before ply 40, it costs you 10 Banqi points times the room\'s base (B13, B17), and rating if rated.', zh: '现在离开，对局仍会继续：你的每一步30秒后超时，第三次超时判负（B12）。第40步之前判负扣10分翻翻棋积分（乘以房间基数，B13、B17），排位赛还会扣等级分。' },
};
