//! Studies: analysis boards a player keeps (issue 39). The hall stores the
//! page's tree as opaque JSON text, bounded, for a variant it has; anyone
//! with a study's id may read it (a share link), only its owner renames,
//! rewrites or deletes it. Guests keep none: their accounts are purged.
//! The tree's `at` (the move shown when it was saved) is checked, so a
//! study reopens where it was left.

use crate::domain::hall::{Hall, HallError, HallResult, new_game_id};
use crate::error::ErrorCode;
use crate::store::{Study, User};

/// Most studies one account keeps.
pub const MAX_STUDIES: i64 = 100;
/// Largest tree (JSON text), in bytes.
pub const MAX_TREE_BYTES: usize = 256 * 1024;
/// Longest study name, in characters.
pub const MAX_NAME_CHARS: usize = 80;

/// Refuses guests: their accounts (and so their studies) do not last.
fn registered(user: &User) -> HallResult<()> {
    if user.guest {
        return Err(HallError::new(
            ErrorCode::StudyGuest,
            "guests cannot keep studies: register (it is free) to save one",
        ));
    }
    Ok(())
}

/// A name of at most 80 characters; control characters dropped, trimmed,
/// and an empty one named after the study's kind of thing.
fn check_name(name: &str) -> HallResult<String> {
    let kept: String = name.chars().filter(|c| !c.is_control()).collect();
    let name = match kept.trim() {
        "" => "study",
        t => t,
    };
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(HallError::new(
            ErrorCode::BadStudy,
            format!(
                "a study's name is 1 to {MAX_NAME_CHARS} characters, without control characters"
            ),
        )
        .with("why", "name")
        .with("max", MAX_NAME_CHARS));
    }
    Ok(name.to_string())
}

/// A tree: a JSON object of at most [`MAX_TREE_BYTES`], whose `at` (the
/// move shown when it was saved), if any, is a move of its `moves`.
fn check_tree(tree: &str) -> HallResult<()> {
    if tree.len() > MAX_TREE_BYTES {
        return Err(HallError::new(
            ErrorCode::BadStudy,
            format!("a study's tree is at most {MAX_TREE_BYTES} bytes"),
        )
        .with("why", "size")
        .with("max", MAX_TREE_BYTES));
    }
    match serde_json::from_str::<serde_json::Value>(tree) {
        Ok(v @ serde_json::Value::Object(_)) => shown_ply(&v).map(|_| ()),
        _ => Err(
            HallError::new(ErrorCode::BadStudy, "a study's tree is a JSON object")
                .with("why", "tree"),
        ),
    }
}

/// The ply of the move a tree shows: its `at` is the index in its `moves`
/// of the move on the board when it was saved (absent or null: the start
/// position, ply 0), and a move's `parent` is an earlier index or null.
/// The walk to the start is bounded by the moves before `at`, so a tree
/// whose parents do not lead back to the start is refused, not followed.
pub fn shown_ply(tree: &serde_json::Value) -> HallResult<usize> {
    let bad = |message: String| {
        Err(HallError::new(ErrorCode::BadStudy, message)
            .with("why", "at")
            .with("max", MAX_SHOWN))
    };
    let at = match tree.get("at") {
        None | Some(serde_json::Value::Null) => return Ok(0),
        Some(v) => v,
    };
    let moves = tree
        .get("moves")
        .and_then(|m| m.as_array())
        .map_or(&[][..], Vec::as_slice);
    let Some(mut i) = at
        .as_u64()
        .and_then(|a| usize::try_from(a).ok())
        .filter(|&a| a < moves.len() && a < MAX_SHOWN)
    else {
        return bad(format!(
            "a study's 'at' is the index of one of its moves (0 to {}), or null for the start",
            moves.len().min(MAX_SHOWN).saturating_sub(1)
        ));
    };
    let mut ply = 1;
    loop {
        match moves[i].get("parent") {
            None | Some(serde_json::Value::Null) => return Ok(ply),
            Some(p) => match p.as_u64().and_then(|p| usize::try_from(p).ok()) {
                Some(p) if p < i => {
                    i = p;
                    ply += 1;
                }
                _ => {
                    return bad(format!(
                        "move {i} of the study's line to 'at' names no earlier move as its parent"
                    ));
                }
            },
        }
    }
}

/// The largest `at`: as many moves as a board's tree holds.
pub const MAX_SHOWN: usize = 20_000;

fn no_study(id: &str) -> HallError {
    HallError::not_found(format!("no study '{}'", crate::error::shown(id)))
}

impl Hall {
    /// Saves a new study of `user` for `variant` (a variant the hall has).
    pub async fn save_study(
        &self,
        user: &User,
        name: &str,
        variant: &str,
        tree: &str,
    ) -> HallResult<Study> {
        registered(user)?;
        let name = check_name(name)?;
        check_tree(tree)?;
        if self.games.find(variant).is_none() {
            return Err(HallError::not_found(format!(
                "no game '{}'",
                crate::error::shown(variant)
            )));
        }
        if self.store.study_count(user.id).await? >= MAX_STUDIES {
            return Err(HallError::new(
                ErrorCode::TooManyStudies,
                format!("you keep {MAX_STUDIES} studies at most: delete one first"),
            )
            .with("max", MAX_STUDIES));
        }
        let study = Study {
            id: new_game_id(),
            user_id: user.id,
            owner: user.username.clone(),
            name,
            variant: variant.to_string(),
            tree: Some(tree.to_string()),
            created_ms: crate::clock::wall_ms(),
            updated_ms: crate::clock::wall_ms(),
        };
        self.store.insert_study(&study).await?;
        Ok(Study {
            tree: None,
            ..study
        })
    }

    /// The studies `user` keeps, latest change first, without their trees.
    pub async fn studies_of(&self, user: &User) -> HallResult<Vec<Study>> {
        Ok(self.store.studies_of(user.id, MAX_STUDIES).await?)
    }

    /// One study with its tree, for anyone who has its id.
    pub async fn study(&self, id: &str) -> HallResult<Study> {
        if id.len() > 16 {
            return Err(no_study(id));
        }
        self.store.study(id).await?.ok_or_else(|| no_study(id))
    }

    /// Renames and/or rewrites a study; only its owner may.
    pub async fn update_study(
        &self,
        user: &User,
        id: &str,
        name: Option<&str>,
        tree: Option<&str>,
    ) -> HallResult<Study> {
        registered(user)?;
        let name = name.map(check_name).transpose()?;
        if let Some(t) = tree {
            check_tree(t)?;
        }
        let found = self.study(id).await?;
        if found.user_id != user.id {
            return Err(HallError::new(
                ErrorCode::Forbidden,
                "only the study's owner may change it",
            ));
        }
        if !self
            .store
            .update_study(id, user.id, name.as_deref(), tree)
            .await?
        {
            return Err(no_study(id));
        }
        let mut s = self.study(id).await?;
        s.tree = None;
        Ok(s)
    }

    /// Deletes a study; only its owner may.
    pub async fn delete_study(&self, user: &User, id: &str) -> HallResult<()> {
        let found = self.study(id).await?;
        if found.user_id != user.id {
            return Err(HallError::new(
                ErrorCode::Forbidden,
                "only the study's owner may delete it",
            ));
        }
        if !self.store.delete_study(id, user.id).await? {
            return Err(no_study(id));
        }
        Ok(())
    }
}
