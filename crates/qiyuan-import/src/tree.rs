//! The move tree every format is read into: nodes in one vector (no
//! recursion to build, walk or drop it, however deep the lines go).

use crate::error::{ImportError, Place};
use crate::{MAX_MOVES, MAX_PLIES};

/// One position of the tree: the move that reached it and what was said of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The move in lower-case ICCS (`h2e2`); empty for the root.
    pub mv: String,
    /// The comment on the move (on the root: on the game).
    pub comment: Option<String>,
    /// The node this move was played from; `None` for the root.
    pub parent: Option<usize>,
    /// The moves played from here, the main continuation first.
    pub children: Vec<usize>,
    /// Plies from the start position (0 for the root).
    pub ply: usize,
}

/// A tree of moves from the start position; node 0 is the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveTree {
    nodes: Vec<Node>,
}

impl Default for MoveTree {
    fn default() -> Self {
        MoveTree::new()
    }
}

impl MoveTree {
    /// A tree with the root alone.
    pub fn new() -> MoveTree {
        MoveTree {
            nodes: vec![Node {
                mv: String::new(),
                comment: None,
                parent: None,
                children: Vec::new(),
                ply: 0,
            }],
        }
    }

    /// The root (the start position).
    pub fn root(&self) -> &Node {
        &self.nodes[0]
    }

    /// Node `i`, if there is one.
    pub fn node(&self, i: usize) -> Option<&Node> {
        self.nodes.get(i)
    }

    /// Every node, the root first; a parent always comes before its children.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// How many moves the tree holds (all lines together).
    pub fn move_count(&self) -> usize {
        self.nodes.len() - 1
    }

    /// The main line: the first child at every step.
    pub fn main_line(&self) -> Vec<&str> {
        let mut line = Vec::new();
        let mut at = 0;
        while let Some(&next) = self.nodes[at].children.first() {
            line.push(self.nodes[next].mv.as_str());
            at = next;
        }
        line
    }

    /// How many side lines the tree holds: every child after the first.
    pub fn variation_count(&self) -> usize {
        self.nodes
            .iter()
            .map(|n| n.children.len().saturating_sub(1))
            .sum()
    }

    /// The moves from the root to node `i` (empty for the root).
    pub fn line_to(&self, i: usize) -> Vec<&str> {
        let mut line = Vec::new();
        let mut at = Some(i);
        while let Some(n) = at.and_then(|i| self.nodes.get(i)) {
            if n.parent.is_some() {
                line.push(n.mv.as_str());
            }
            at = n.parent;
        }
        line.reverse();
        line
    }

    /// Adds move `mv` (ICCS) after node `parent`; `place` is where the file
    /// writes it, for the limit errors.
    pub(crate) fn add(
        &mut self,
        parent: usize,
        mv: String,
        place: Place,
    ) -> Result<usize, ImportError> {
        if self.move_count() >= MAX_MOVES {
            return Err(ImportError::Limit {
                place,
                what: "moves",
                limit: MAX_MOVES,
            });
        }
        let ply = self.nodes[parent].ply + 1;
        if ply > MAX_PLIES {
            return Err(ImportError::Limit {
                place,
                what: "plies in one line",
                limit: MAX_PLIES,
            });
        }
        let i = self.nodes.len();
        self.nodes.push(Node {
            mv,
            comment: None,
            parent: Some(parent),
            children: Vec::new(),
            ply,
        });
        self.nodes[parent].children.push(i);
        Ok(i)
    }

    /// Adds `text` (trimmed; nothing if blank) to the comment of node `i`,
    /// after any comment it already has.
    pub(crate) fn comment(&mut self, i: usize, text: &str) {
        let text = text.trim();
        if text.is_empty() {
            return;
        }
        let Some(node) = self.nodes.get_mut(i) else {
            return;
        };
        match &mut node.comment {
            Some(c) => {
                c.push('\n');
                c.push_str(text);
            }
            None => node.comment = Some(text.to_string()),
        }
    }
}
