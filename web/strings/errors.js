// @ts-check
// Messages for mistakes in forms and requests: each key once, in English and Chinese (see web/strings/glossary.js).
/** @type {Record<string, {en: string, zh: string}>} */
export default {
  err_rating_range: { en: 'The rating range is 0 to 4000, its minimum no higher than its maximum.', zh: '等级分范围为 0 至 4000，最低不得高于最高。' },
  err_minutes_empty: { en: 'Enter the minutes each player has (1 to 180).', zh: '请填写每方用时（1 至 180 分钟）。' },
  err_minutes_zero: { en: 'The clock needs at least 1 minute.', zh: '用时至少 1 分钟。' },
  err_minutes_large: { en: 'At most {n} minutes (3 hours) a player.', zh: '每方用时最多 {n} 分钟（3 小时）。' },
  err_increment: { en: 'The increment is 0 to {n} seconds.', zh: '每步加秒为 0 至 {n} 秒。' },
  err_target: { en: 'The target score is {min} to {max}.', zh: '目标积分为 {min} 至 {max}。' },
};
