//! Game points (游戏积分, B13-B17): a pure function of how a game ended and
//! the room's base, so the hall can settle balances without the game itself.

/// What the game-point rules need to know about a finished game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PointsInput {
    /// The winning seat, or `None` for a draw.
    pub winner: Option<usize>,
    /// Plies played (flips, moves and captures of both players).
    pub plies: u32,
    /// The winner's own pieces still on the board, face up or down.
    pub winner_pieces: u32,
    /// Whether the first enemy piece the winner captured was the enemy general.
    pub general_first: bool,
}

/// Plies below which a decided game pays the fixed amounts of B13.
pub const SHORT_GAME_PLIES: u32 = 40;
/// What the loser of a short game loses (B13).
pub const SHORT_GAME_LOSS: i64 = 10;
/// The winner's bonus for taking the general first (B16).
pub const GENERAL_FIRST_BONUS: i64 = 5;

/// The change of each seat's banqi points balance, `[seat 0, seat 1]`:
/// - B13: decided in fewer than 40 plies: winner +0, loser −10;
/// - B14: decided in 40 plies or more: winner +N, loser −N, N = the winner's
///   pieces left;
/// - B15: a draw moves nothing;
/// - B16: +5 more for the winner whose first capture was the enemy general;
/// - B17: everything times the room's `base`.
pub fn game_points(input: &PointsInput, base: i64) -> [i64; 2] {
    let Some(winner) = input.winner else {
        return [0, 0];
    };
    let (mut win, lose) = if input.plies < SHORT_GAME_PLIES {
        (0, SHORT_GAME_LOSS)
    } else {
        let n = i64::from(input.winner_pieces);
        (n, n)
    };
    if input.general_first {
        win += GENERAL_FIRST_BONUS;
    }
    let mut out = [0i64; 2];
    let w = winner.min(1);
    out[w] = win.saturating_mul(base);
    out[1 - w] = (-lose).saturating_mul(base);
    out
}
