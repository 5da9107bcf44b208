// @ts-check
// Xiangqi and Jifen Xiangqi: each key once, in English and Chinese (see web/strings/glossary.js).
/** @type {Record<string, {en: string, zh: string}>} */
export default {
  score_target: { en: 'first to {n}', zh: '先到 {n} 分' },
  reason_points: { en: 'target score reached', zh: '积分达到目标' },
  'reason_perpetual-check': { en: 'perpetual check', zh: '长将' },
  'reason_perpetual-chase': { en: 'perpetual chase', zh: '长捉' },
  'reason_move-limit': { en: 'move limit', zh: '自然限着' },
  target: { en: 'Target score', zh: '目标积分' },
  claim: { en: 'Claim draw (move limit)', zh: '自然限着判和' },
  pass: { en: 'Pass', zh: '停着' },
  score: { en: 'Score', zh: '积分' },
  second_move: { en: 'Second move of a double turn (or pass)', zh: '本回合第二步（也可停着）' },
  choose_class: { en: 'Class after the move', zh: '走后变为' },
  choose_move: { en: 'Which move?', zh: '选择着法' },
  keep: { en: 'Keep class', zh: '不变' },
  normal: { en: 'Normal', zh: '普通' },
  small: { en: 'Small', zh: '小' },
  royal: { en: 'Royal', zh: '王' },
  idle: { en: 'Idle', zh: '闲' },
  xiangqi: { en: 'Xiangqi', zh: '中国象棋' },
  'jifen-simple': { en: 'Jifen (simple)', zh: '积分象棋（简易）' },
  'jifen-match': { en: 'Jifen (match)', zh: '积分象棋（比赛）' },
  'jifen-contest': { en: 'Jifen (contest)', zh: '积分象棋（竞技）' },
};
