// @ts-check
// Chinese and English strings. The default follows the browser; the choice is kept.
const STRINGS = {
  en: {
    typed_move: 'Type a move', typed_placeholder: 'h2e2', typed_go: 'Play', typed_empty: 'Type a move first, e.g. h2e2.', typed_format: 'Not a move: write it as two squares, e.g. h2e2 (Tiaoqi: 4.2-5.6).',
    typed_illegal: '"{m}" is not a legal move here.', typed_not_your_turn: 'It is not your move.', typed_not_playing: 'The game is not in play.',
    sound_on: 'Sound on', sound_off: 'Sound off', sound_about: 'Sounds for moves, captures and the end of a game',
    theme_dark: 'Dark', theme_light: 'Light', theme_about: 'Light or dark colours',
    quick_play: 'Quick play', quick_play_about: 'Opens a Xiangqi room with this clock for anyone to join', play_computer: 'Play the computer', play_computer_about: 'Xiangqi against AI level 3, 10+5',
    resign_later: 'Resigning and draw offers open at ply 40.', flip_move: 'flip', seat_wins: '{name} wins', per_move: '{n} s a move', clock: 'Clock', turn_board: 'Turn board', cancel: 'Cancel', new_game: 'New game', you_won: 'You won', you_lost: 'You lost',
    rating_change: 'Rating change', accept_rematch: 'Accept rematch', rematch_sent: 'Rematch offered, waiting for the answer',
    offers_draw: '{name} offers a draw', draw_offered_wait: 'Draw offered: waiting for the answer', draw_declined: 'Your draw offer was declined',
    takeback: 'Take back', takeback_about: 'Ask your opponent to let you take your last move back', asks_takeback: '{name} asks to take back a move', accept_takeback: 'Allow', decline_takeback: 'Decline', takeback_wait: 'Takeback asked: waiting for the answer', takeback_declined: 'Your takeback request was declined', takeback_done: 'A move was taken back',
    my_games: 'My games', open_game: 'Open', invite_about: 'Anyone with this link can take the open seat', invite_challenge_about: 'Only {name} can take the seat through this link', my_games_turn: '{n} waiting for your move', my_games_none: 'No games in play', your_move_short: 'your move', challenges_in: 'Challenges to you', challenge_from: '{name} challenges you',
    challenge_user: 'Challenge a user', challenge_placeholder: 'username (optional)', invite_link: 'Invite link', copy_link: 'Copy link', copied: 'Copied', challenge_for: 'Waiting for {name} to accept', not_for_you: 'This challenge is for {name}.',
    chat: 'Chat', chat_send: 'Send', chat_placeholder: 'Say something (at most 200 characters)', chat_mute: 'Mute opponent', chat_unmute: 'Unmute opponent', chat_report: 'Report', chat_reported: 'Reported: thank you', chat_muted_note: 'Opponent muted', chat_none: 'No messages yet',
    premove: 'Premove: {m} (Esc or right-click cancels)', premove_dropped: 'Premove {m} was no longer legal',
    no_such_game: 'No such game', no_such_game_text: 'There is no game "{id}": the link may be mistyped, or the game never existed.', back_to_lobby: 'Back to the lobby',
    replay_first: 'Start', replay_prev: 'Back one move', replay_next: 'Forward one move', replay_last: 'Now',
    your_colour: 'Your colour', random: 'Random', rated_guest: 'Guests play unrated games only: register to play rated.',
    err_minutes_empty: 'Enter the minutes each player has (1 to 180).', err_minutes_zero: 'The clock needs at least 1 minute.', err_minutes_large: 'At most {n} minutes (3 hours) a player.',
    err_increment: 'The increment is 0 to {n} seconds.', err_target: 'The target score is {min} to {max}.',
    score_target: 'first to {n}', timeout_marks_about: 'A player whose 30 s for a move run out loses that turn and gets a mark; the third mark loses the game.',
    reason_checkmate: 'checkmate', reason_stalemate: 'no legal move (stalemate)', reason_points: 'target score reached', 'reason_perpetual-check': 'perpetual check',
    'reason_perpetual-chase': 'perpetual chase', reason_repetition: 'repetition', 'reason_move-limit': 'move limit', 'reason_dead-position': 'neither side can win',
    reason_resignation: 'resignation', reason_timeout: 'time out', reason_agreement: 'agreed draw',
    banqi: 'Banqi (flip chess)', 'banqi-icga': 'Banqi (ICGA rules)', tiaoqi: 'Chinese checkers (2)', 'tiaoqi-3': 'Chinese checkers (3)', 'tiaoqi-4': 'Chinese checkers (4)', 'tiaoqi-6': 'Chinese checkers (6)', captured: 'Captured', timeout_marks: 'Timeout marks', banqi_points: 'Banqi points',
    junqi: 'Junqi (hidden)', 'junqi-open': 'Junqi (open)', 'junqi-flip': 'Junqi (flip)', result_blue: 'Blue wins', setup_phase: 'Set-up: click two of your pieces to swap them, then send it (or draw a random one)', send_setup: 'Send this set-up', blue: 'Blue', jq_setup: 'set-up', jq_attacker_wins: 'wins the clash', jq_defender_wins: 'loses the clash', jq_both_removed: 'both removed', jq_flag_taken: 'takes the flag', 'reason_flag-captured': 'flag captured', jq_load: 'Load', jq_save: 'Save', jq_preset_name: 'a name for it', jq_on_timeout: 'use it if my time runs out', jq_saved: 'Saved', jq_loaded: 'Loaded', jq_planned: 'Suggested set-up',
    tv: 'TV', tv_title: 'Live games', tv_none: 'No game in play right now', tv_mean: 'mean rating of the players', tv_watchers: '{n} watching',
    lobby: 'Lobby', rules: 'Rules', login: 'Log in', register: 'Register', logout: 'Log out',
    username: 'Username', password: 'Password', create: 'Create game', game: 'Game',
    target: 'Target score', minutes: 'Minutes', increment: 'Increment (s)', opponent: 'Opponent',
    open_seat: 'Open seat (a person)', ai_level: 'AI level', rated: 'Rated', open_rooms: 'Open rooms',
    in_play: 'Games in play', join: 'Join', watch: 'Watch', none: 'None yet', red: 'Red', black: 'Black',
    waiting: 'Waiting for an opponent…', your_turn: 'Your move', their_turn: "Opponent's move",
    resign: 'Resign', offer_draw: 'Offer draw', accept_draw: 'Accept draw', decline_draw: 'Decline',
    claim: 'Claim draw (move limit)', pass: 'Pass', random_setup: 'Random set-up', rematch: 'Rematch', pgn: 'Download PGN', flip: 'Flip',
    draw_offered: 'Draw offered', score: 'Score', second_move: 'Second move of a double turn (or pass)',
    result_red: 'Red wins', result_black: 'Black wins', result_draw: 'Draw', moves: 'Moves',
    choose_class: 'Class after the move', choose_move: 'Which move?', keep: 'Keep class', normal: 'Normal', small: 'Small',
    royal: 'Royal', idle: 'Idle', profile: 'Profile', history: 'Games', guest: 'guest',
    replay: 'Replay', spectator: 'Watching', vs: 'vs', rematch_offered: 'Rematch offered',
    leaderboard: 'Leaderboard', rating: 'Rating', title: 'Title', rated_games: 'Rated games', no_rated_games: 'No rated games yet',
    events: 'Events', new_event: 'New event', name: 'Name', format: 'Format', players: 'Players', start_now: 'Start now', start: 'Start',
    swiss_rounds: 'Swiss rounds', groups: 'Groups', advance: 'Advance per group', bracket: 'Final bracket',
    fmt_round_robin: 'Round robin', fmt_double_round_robin: 'Double round robin', fmt_knockout: 'Knockout (seeded)', fmt_knockout_drawn: 'Knockout (drawn)', fmt_swiss: 'Swiss (FIDE Dutch)', baku: 'Baku acceleration', baku_hint: 'The top half gets virtual points in the first rounds so the leaders meet sooner (FIDE C.04.5.1)', fmt_three_stage: 'Three-stage',
    ev_open: 'Taking entries', ev_running: 'In progress', ev_finished: 'Finished', ev_error: 'Stopped', ev_playing: 'playing', ev_invited: 'Waiting for invited players', ev_declined: 'Cancelled (an invitation was declined)',
    set_up: 'set-up position (unrated, no points)', set_up_short: 'set-up', invited: 'Invited', invitations: 'Invitations', accept: 'Accept', decline: 'Decline', team_event: 'Team event', organiser: 'organiser',
    sessions: 'Signed-in devices', revoke: 'Sign out', revoke_others: 'Sign out everywhere else', this_device: 'this device', last_used: 'last used', expires: 'expires',
    standings: 'Standings', round: 'Round', stage: 'Stage', group: 'Group', playoff: 'Play-off', bye: 'Bye', winner: 'Winner', tie_breaks: 'Tie-breaks', export_trf: 'Export TRF',
    board_theme: 'Board', piece_theme: 'Pieces', board_wood: 'Wood', board_green: 'Green', board_blue: 'Blue', board_paper: 'Paper', pieces_classic: 'Classic', pieces_solid: 'Solid', pieces_jade: 'Jade',
    analyse: 'Analyse with the engine', analysing: 'The engine is analysing…', analysis: 'Engine analysis', depth: 'depth', best: 'best', biggest_drops: 'Biggest drops', no_big_drops: 'No move lost much.',
    team_events: 'Team events', new_team_event: 'New team event', te_teams: 'Teams, one a line: name: players in board order (user names or ai:N)', te_teams_example: 'Red Army: alice, ai:3\nBlue Army: bob, ai:2', te_teams_short: 'teams', te_boards_short: 'boards', te_board_n: 'Board {n}', te_round_n: 'Round {n}', te_playoff_for: 'Play-off for place {n}', te_playoff_rule: 'Every board is an armageddon game (red 5 min, black 4): a draw counts as a win for black. More boards won takes the match; an even split goes to the winner of the lowest board.', te_playoff_pending: 'Place {n} may not be shared: play-off', col_team: 'Team', col_match_points: 'Match points (场分)', col_game_points: 'Game points (总局分)', col_game_wins: 'Game wins',
    col_rank: 'Place', col_name: 'Player', col_score: 'Score', col_sonneborn_berger: 'SB (小分)', col_buchholz: 'Buchholz', col_wins: 'Wins', col_direct: 'Direct', col_fouls: 'Fouls', col_games: 'Games',
    'xiangqi': 'Xiangqi', 'jifen-simple': 'Jifen (simple)', 'jifen-match': 'Jifen (match)', 'jifen-contest': 'Jifen (contest)',
    out_of_game: 'You are out of this game; the others play on', tq_to_go: 'Distance left', tq_open: 'open seat', tq_you: 'you', tq_your_camp: 'Your camp', tq_your_target: 'Your target', tq_out: 'out', tq_done: 'home', tq_to_move: 'to move',
    tq_place: 'place {n}', tq_countdown: '{n} moves left', tq_dead_title: 'Dead game!', tq_dead_game: 'No one has come closer for 10 rounds: each player must move its rearmost piece forward within its next 5 moves, or lose (T9).',
    tq_quiet: 'No one has come closer: a dead game is declared in {n} rounds unless someone gains ground (T9).', tq_finish_order: 'Finishing order', tq_wins: '{n} wins', tq_tap_again: 'Tap again to move',
    'tiaoqi-multi': 'Chinese checkers (3-6 players)', result_a: 'a wins', result_b: 'b wins', result_c: 'c wins', result_d: 'd wins', result_e: 'e wins', result_f: 'f wins',
    rules_text: `<h3>Xiangqi</h3><p>Red moves first. Generals stay in the palace and may never face each other on an open file. Checkmate or stalemate loses. Perpetual check or chase loses; other repetitions are drawn. 120 plies without a capture let either player claim a draw; 300 draw automatically. A flag fall loses unless the opponent cannot mate.</p>
<h3>Jifen Xiangqi (积分象棋)</h3><p>Every piece also has a class: <b>Normal</b> (full size), <b>Small</b> (smaller disc, cannot take Small pieces), <b>Royal</b> (gold ring, must be protected like the general; contest rules) and <b>Idle</b> (hollow, captures nothing). After a move you may change the moved piece's class. Moves score points by the class of the piece that moved (simple: Idle +1, a check −1; match: Normal gives the opponent +1, Idle +1, a check gives the opponent +2; contest: Normal gives the opponent +1, Royal and Idle +1). Reaching the target score wins at once. Contest rules: until the first capture a turn may be two moves (or one and a pass); a capture or check ends the turn.</p>
<h3>Banqi (flip chess, 翻翻棋)</h3><p>Played on half a Xiangqi board, 4 rows of 8 squares, with all 32 pieces shuffled face down; nobody, not even the server's page, knows a hidden piece until it is turned. A turn is one of: turn a hidden piece over, step one of your own face-up pieces to a neighbouring empty square (up, down, left or right), or capture. The first piece turned decides the colours: its colour goes to the player who turned it.</p>
<p>Pieces rank general, advisor, elephant, chariot, horse, cannon, soldier (high to low). A piece takes a neighbouring face-up enemy of lower rank; the one exception is that a soldier may take the general and the general may not take a soldier. Two pieces of the same rank both leave the board (in the ICGA rule set the capturer survives). The cannon steps like the others but takes only by jumping over exactly one piece along a row or column, onto a face-up enemy of any rank. Hidden pieces cannot be taken. Chasing the same piece more than ten times in a row is not allowed.</p>
<p>You lose when all your pieces are gone or you have nothing to do on your turn; after 300 plies the game is a draw. Resigning and offering a draw are possible from ply 40. <b>Clock:</b> 30 s a move. If your time for a move runs out, that turn is lost (nothing moves) and you get a <b>timeout mark</b>; the third mark loses the game.</p>`,
  },
  zh: {
    typed_move: '输入着法', typed_placeholder: 'h2e2', typed_go: '走', typed_empty: '请先输入着法，例如 h2e2。', typed_format: '不是着法：请写成两个坐标，例如 h2e2（跳棋：4.2-5.6）。',
    typed_illegal: '“{m}”在此不是合法着法。', typed_not_your_turn: '还没轮到你走。', typed_not_playing: '对局不在进行中。',
    sound_on: '声音开', sound_off: '声音关', sound_about: '走子、吃子和终局的声音',
    theme_dark: '深色', theme_light: '浅色', theme_about: '浅色或深色配色',
    quick_play: '快速开局', quick_play_about: '按此用时开一个中国象棋房间，等人加入', play_computer: '和电脑下', play_computer_about: '中国象棋，对电脑3级，10+5',
    resign_later: '第40步起方可认输或提和。', flip_move: '翻', seat_wins: '{name} 胜', per_move: '每步{n}秒', clock: '用时', turn_board: '转换视角', cancel: '取消', new_game: '新对局', you_won: '你赢了', you_lost: '你输了',
    rating_change: '等级分变化', accept_rematch: '同意再来一局', rematch_sent: '已请求再来一局，等待对方答复',
    offers_draw: '{name} 提和', draw_offered_wait: '已提和，等待对方答复', draw_declined: '对方拒绝了你的提和',
    takeback: '悔棋', takeback_about: '请求对方同意撤回你的上一步', asks_takeback: '{name} 请求悔棋', accept_takeback: '同意', decline_takeback: '拒绝', takeback_wait: '已请求悔棋，等待对方答复', takeback_declined: '对方拒绝了你的悔棋请求', takeback_done: '已悔棋一步',
    my_games: '我的对局', open_game: '进入', invite_about: '任何人都可以通过此链接入座', invite_challenge_about: '只有 {name} 能通过此链接入座', my_games_turn: '{n} 局轮到你走', my_games_none: '没有进行中的对局', your_move_short: '轮到你', challenges_in: '向你发起的挑战', challenge_from: '{name} 向你挑战',
    challenge_user: '挑战指定用户', challenge_placeholder: '用户名（可不填）', invite_link: '邀请链接', copy_link: '复制链接', copied: '已复制', challenge_for: '等待 {name} 接受挑战', not_for_you: '此挑战只发给 {name}。',
    chat: '聊天', chat_send: '发送', chat_placeholder: '说点什么（最多200字）', chat_mute: '屏蔽对方', chat_unmute: '取消屏蔽', chat_report: '举报', chat_reported: '已举报，谢谢', chat_muted_note: '已屏蔽对方', chat_none: '还没有消息',
    premove: '预走：{m}（Esc 或右键取消）', premove_dropped: '预走 {m} 已不合法，已取消',
    no_such_game: '没有这局棋', no_such_game_text: '找不到对局“{id}”：链接可能有误，或该对局从未存在。', back_to_lobby: '返回大厅',
    replay_first: '开局', replay_prev: '后退一步', replay_next: '前进一步', replay_last: '当前',
    your_colour: '执子', random: '随机', rated_guest: '游客只能下不计分的对局，注册后可下计分局。',
    err_minutes_empty: '请填写每方用时（1 至 180 分钟）。', err_minutes_zero: '用时至少 1 分钟。', err_minutes_large: '每方用时最多 {n} 分钟（3 小时）。',
    err_increment: '每步加秒为 0 至 {n} 秒。', err_target: '目标积分为 {min} 至 {max}。',
    score_target: '先到 {n} 分', timeout_marks_about: '每步限时30秒，超时者本步作废并记一次超时，第三次超时判负。',
    reason_checkmate: '将死', reason_stalemate: '困毙（无子可走）', reason_points: '积分达到目标', 'reason_perpetual-check': '长将',
    'reason_perpetual-chase': '长捉', reason_repetition: '循环重复', 'reason_move-limit': '自然限着', 'reason_dead-position': '双方均无法取胜',
    reason_resignation: '认输', reason_timeout: '超时', reason_agreement: '协议和棋',
    banqi: '翻翻棋', 'banqi-icga': '翻翻棋 (ICGA 规则)', tiaoqi: '跳棋 (2人)', 'tiaoqi-3': '跳棋 (3人)', 'tiaoqi-4': '跳棋 (4人)', 'tiaoqi-6': '跳棋 (6人)', captured: '被吃', timeout_marks: '超时次数', banqi_points: '翻翻棋积分',
    junqi: '军棋 (暗棋)', 'junqi-open': '军棋 (明棋)', 'junqi-flip': '军棋 (翻棋)', result_blue: '蓝方胜', setup_phase: '布阵阶段: 点击两枚己方棋子互换位置, 然后提交 (或随机布阵)', send_setup: '提交布阵', blue: '蓝方', jq_setup: '布阵', jq_attacker_wins: '攻方胜', jq_defender_wins: '攻方被吃', jq_both_removed: '同归于尽', jq_flag_taken: '夺得军旗', 'reason_flag-captured': '夺得军旗', jq_load: '载入', jq_save: '保存', jq_preset_name: '布阵名称', jq_on_timeout: '超时未布阵时使用', jq_saved: '已保存', jq_loaded: '已载入', jq_planned: '推荐布阵',
    tv: '电视', tv_title: '对局直播', tv_none: '暂无进行中的对局', tv_mean: '棋手的平均等级分', tv_watchers: '{n} 人观战',
    lobby: '大厅', rules: '规则', login: '登录', register: '注册', logout: '退出',
    username: '用户名', password: '密码', create: '创建对局', game: '棋种',
    target: '目标积分', minutes: '分钟', increment: '每步加秒', opponent: '对手',
    open_seat: '空位（等人）', ai_level: '电脑级别', rated: '计分', open_rooms: '等待中的房间',
    in_play: '进行中的对局', join: '加入', watch: '观战', none: '暂无', red: '红方', black: '黑方',
    waiting: '等待对手…', your_turn: '轮到你走', their_turn: '对方走棋',
    resign: '认输', offer_draw: '提和', accept_draw: '同意和棋', decline_draw: '拒绝',
    claim: '自然限着提和', pass: '停着', random_setup: '随机布阵', rematch: '再来一局', pgn: '下载PGN', flip: '翻转',
    draw_offered: '对方提和', score: '积分', second_move: '双步回合第二步（或停着）',
    result_red: '红胜', result_black: '黑胜', result_draw: '和棋', moves: '着法',
    choose_class: '走后棋子类别', choose_move: '选择着法', keep: '不变', normal: '普通', small: '小', royal: '王', idle: '闲',
    profile: '个人资料', history: '对局', guest: '游客',
    replay: '复盘', spectator: '观战中', vs: '对', rematch_offered: '对方请求再来一局',
    leaderboard: '排行榜', rating: '等级分', title: '级别', rated_games: '计分局数', no_rated_games: '暂无计分对局',
    events: '比赛', new_event: '新建比赛', name: '名称', format: '赛制', players: '选手', start_now: '立即开始', start: '开始',
    swiss_rounds: '瑞士制轮数', groups: '分组数', advance: '每组出线', bracket: '决赛淘汰人数',
    fmt_round_robin: '单循环', fmt_double_round_robin: '双循环', fmt_knockout: '单淘汰（种子）', fmt_knockout_drawn: '单淘汰（抽签）', fmt_swiss: '瑞士制 (FIDE 荷兰制)', baku: '巴库加速', baku_hint: '前半部分棋手在前几轮获得虚拟分, 使领先者更早相遇 (FIDE C.04.5.1)', fmt_three_stage: '三轮赛制',
    ev_open: '报名中', ev_running: '进行中', ev_finished: '已结束', ev_error: '已中止', ev_playing: '对局中', ev_invited: '等待受邀棋手确认', ev_declined: '已取消 (有人谢绝邀请)',
    set_up: '摆局 (不计等级分, 不计积分)', set_up_short: '摆局', invited: '已邀请', invitations: '邀请', accept: '接受', decline: '谢绝', team_event: '团体赛', organiser: '组织者',
    sessions: '已登录的设备', revoke: '退出该设备', revoke_others: '退出其他所有设备', this_device: '本设备', last_used: '最近使用', expires: '到期',
    standings: '成绩表', round: '第', stage: '阶段', group: '组', playoff: '加赛', bye: '轮空', winner: '冠军', tie_breaks: '破同分', export_trf: '导出 TRF',
    board_theme: '棋盘', piece_theme: '棋子', board_wood: '木纹', board_green: '青绿', board_blue: '湖蓝', board_paper: '宣纸', pieces_classic: '经典', pieces_solid: '实心', pieces_jade: '玉石',
    analyse: '引擎分析', analysing: '引擎分析中…', analysis: '引擎分析', depth: '深度', best: '最佳', biggest_drops: '失分最多的着法', no_big_drops: '没有明显的失误.',
    team_events: '团体赛', new_team_event: '新建团体赛', te_teams: '参赛队, 每行一队: 队名: 按台次排列的队员 (用户名或 ai:N)', te_teams_example: '红军: alice, ai:3\n蓝军: bob, ai:2', te_teams_short: '队', te_boards_short: '台', te_board_n: '第{n}台', te_round_n: '第{n}轮', te_playoff_for: '第{n}名加赛', te_playoff_rule: '每台均为决胜局 (红方5分钟, 黑方4分钟): 和棋判黑方胜。胜台多者胜该场; 胜台相同, 胜较前台次的一方胜。', te_playoff_pending: '第{n}名不得并列: 需加赛', col_team: '队', col_match_points: '场分', col_game_points: '总局分', col_game_wins: '胜局',
    col_rank: '名次', col_name: '选手', col_score: '积分', col_sonneborn_berger: '小分', col_buchholz: '对手分', col_wins: '胜局', col_direct: '直胜', col_fouls: '犯规', col_games: '局数',
    'xiangqi': '中国象棋', 'jifen-simple': '积分象棋（简易）', 'jifen-match': '积分象棋（比赛）', 'jifen-contest': '积分象棋（竞技）',
    out_of_game: '你已出局，其他人继续对局', tq_to_go: '剩余距离', tq_open: '空位', tq_you: '你', tq_your_camp: '你的大营', tq_your_target: '你的目标', tq_out: '出局', tq_done: '已到达', tq_to_move: '走棋',
    tq_place: '第{n}名', tq_countdown: '还剩{n}步', tq_dead_title: '死局！', tq_dead_game: '已连续10轮无人前进：每位棋手须在接下来的5步内把最后面的棋子向前走，否则判负 (T9)。',
    tq_quiet: '无人前进：再过{n}轮仍无进展即判死局 (T9)。', tq_finish_order: '名次', tq_wins: '{n} 胜', tq_tap_again: '再点一次走棋',
    'tiaoqi-multi': '跳棋 (多人)', result_a: 'a 胜', result_b: 'b 胜', result_c: 'c 胜', result_d: 'd 胜', result_e: 'e 胜', result_f: 'f 胜',
    rules_text: `<h3>中国象棋</h3><p>红方先走。将帅不出九宫，不得照面。将死或困毙判负。长将、长捉判负，其余循环判和。连续120着无吃子可提和，300着自动和棋。超时判负，但对方无子可胜时判和。</p>
<h3>积分象棋</h3><p>每个棋子另有类别：<b>普通</b>（大子）、<b>小</b>（较小圆盘，不能吃小子）、<b>王</b>（金圈，须像将帅一样保护；竞技规则）、<b>闲</b>（空心，不能吃子）。走子后可改变该子类别。按走动棋子的类别计分（简易：闲子+1，将军−1；比赛：普通子对方+1，闲子+1，将军对方+2；竞技：普通子对方+1，王子、闲子+1）。积分先达到目标者立即获胜。竞技规则：首次吃子前每回合可走两步（或一步加停着），吃子或将军结束回合。</p>
<h3>翻翻棋</h3><p>在半张象棋盘（4行8列）上进行，32枚棋子全部反扣、随机摆放；任何人（包括本页面）在棋子翻开之前都不知道它是什么。每一步可以：翻开一枚暗子；把己方一枚明子上下左右走一格到空位；或者吃子。第一枚翻开的棋子是什么颜色，翻它的人就执该色。</p>
<p>子力由大到小：帅（将）、仕（士）、相（象）、车、马、炮、兵（卒）。棋子可吃相邻的、比自己小的敌方明子；例外是兵卒可以吃将帅，将帅不能吃兵卒。同级互吃则两子同归于尽（ICGA 规则下吃子一方留下）。炮也只走一格，但吃子必须沿行或列隔一子跳吃，可吃任何大小的敌方明子。暗子不能被吃。不能连续十次以上追捉同一枚棋子。</p>
<p>棋子被吃光或轮到自己却无棋可走者判负；300步后仍未分胜负则为和棋。第40步起方可认输或提和。<b>用时：</b>每步30秒。超时者本步作废（棋盘不变，轮到对方），并记一次<b>超时</b>；第三次超时判负。</p>`,
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
  /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll('[data-i18n]')).forEach((el) => { el.textContent = t(el.dataset.i18n); });
}
