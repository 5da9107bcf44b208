//! A small XQF writer for the tests, written from the format notes in
//! `src/xqf.rs` and kept apart from the reader: files it writes, plain and
//! encrypted, are read back by the crate.

/// A move and what follows it.
#[derive(Clone, Debug)]
pub struct WNode {
    /// ICCS (`h2e2`).
    pub mv: String,
    pub comment: Option<String>,
    /// The main continuation first.
    pub children: Vec<WNode>,
}

impl WNode {
    pub fn new(mv: &str) -> WNode {
        WNode {
            mv: mv.into(),
            comment: None,
            children: Vec::new(),
        }
    }
    pub fn with(mut self, children: Vec<WNode>) -> WNode {
        self.children = children;
        self
    }
    pub fn said(mut self, comment: &str) -> WNode {
        self.comment = Some(comment.into());
        self
    }
}

/// What to write.
#[derive(Clone, Debug)]
pub struct Spec {
    pub version: u8,
    pub mask: u8,
    pub key_or: [u8; 4],
    /// Seeds for the pieces, origin and destination keys; the sum seed is
    /// chosen so that the four add up to 0 mod 256, as XQStudio writes them.
    pub seeds: [u8; 3],
    /// The board field of a FEN (the side to move comes from `black_first`).
    pub board: String,
    pub black_first: bool,
    /// 0 unknown, 1 red won, 2 black won, 3 draw.
    pub result: u8,
    pub title: String,
    pub event: String,
    pub red: String,
    pub black: String,
    pub game_comment: Option<String>,
    /// Alternative first moves, the main one first.
    pub moves: Vec<WNode>,
}

impl Spec {
    pub fn new(version: u8) -> Spec {
        Spec {
            version,
            mask: 0,
            key_or: [0; 4],
            seeds: [0; 3],
            board: "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR".into(),
            black_first: false,
            result: 0,
            title: String::new(),
            event: String::new(),
            red: String::new(),
            black: String::new(),
            game_comment: None,
            moves: Vec::new(),
        }
    }
}

fn key(seed: u8) -> u8 {
    let k = seed as u32;
    ((54 * k * k + 221) * k % 256) as u8
}

struct Keys {
    pieces: u8,
    from: u8,
    to: u8,
    comment: u32,
    stream: [u8; 32],
}

fn keys(spec: &Spec, sum: u8) -> Keys {
    if spec.version <= 10 {
        return Keys {
            pieces: 0,
            from: 0,
            to: 0,
            comment: 0,
            stream: [0; 32],
        };
    }
    let [xy, xyf, xyt] = spec.seeds;
    let pieces = key(xy);
    let from = ((key(xyf) as u32 * pieces as u32) % 256) as u8;
    let to = ((key(xyt) as u32 * from as u32) % 256) as u8;
    let comment = (sum as u32 * 256 + xy as u32) % 32000 + 767;
    let kb = [
        (sum & spec.mask) | spec.key_or[0],
        (xy & spec.mask) | spec.key_or[1],
        (xyf & spec.mask) | spec.key_or[2],
        (xyt & spec.mask) | spec.key_or[3],
    ];
    let text = b"[(C) Copyright Mr. Dong Shiwei.]";
    let mut stream = [0; 32];
    for i in 0..32 {
        stream[i] = text[i] & kb[i % 4];
    }
    Keys {
        pieces,
        from,
        to,
        comment,
        stream,
    }
}

/// `file * 10 + rank` of an ICCS square such as `h2`.
fn code(sq: &str) -> u8 {
    let b = sq.as_bytes();
    (b[0] - b'a') * 10 + (b[1] - b'0')
}

fn gbk(text: &str) -> Vec<u8> {
    encoding_rs::GBK.encode(text).0.into_owned()
}

/// Writes one record: origin, destination, has-next, has-alternative, comment.
type RecordFn<'a> = dyn Fn(&mut Vec<u8>, u8, u8, bool, bool, Option<&str>) + 'a;

/// Writes `spec` as an XQF file.
pub fn write(spec: &Spec) -> Vec<u8> {
    let mut h = vec![0u8; 1024];
    h[0] = b'X';
    h[1] = b'Q';
    h[2] = spec.version;
    h[3] = spec.mask;
    h[8..12].copy_from_slice(&spec.key_or);
    let [xy, xyf, xyt] = spec.seeds;
    let sum = 0u8.wrapping_sub(xy).wrapping_sub(xyf).wrapping_sub(xyt);
    h[12] = sum;
    h[13] = xy;
    h[14] = xyf;
    h[15] = xyt;
    let k = keys(spec, sum);

    // Pieces into their slots.
    let order = b"RNBAKABNRCCPPPPPrnbakabnrccppppp";
    let mut on_board: Vec<(u8, u8)> = Vec::new(); // (letter, code)
    for (r, row) in spec.board.split('/').enumerate() {
        let rank = 9 - r as u8;
        let mut file = 0u8;
        for c in row.bytes() {
            if c.is_ascii_digit() {
                file += c - b'0';
            } else {
                on_board.push((c, file * 10 + rank));
                file += 1;
            }
        }
    }
    let mut slots = [0xFFu8; 32];
    for (i, &letter) in order.iter().enumerate() {
        if let Some(at) = on_board.iter().position(|(l, _)| *l == letter) {
            slots[i] = on_board.remove(at).1;
        }
    }
    assert!(on_board.is_empty(), "pieces without a slot: {on_board:?}");
    let enc: Vec<u8> = slots.iter().map(|s| s.wrapping_add(k.pieces)).collect();
    for i in 0..32 {
        let v = if spec.version >= 12 {
            enc[(i + k.pieces as usize + 1) & 31]
        } else {
            enc[i]
        };
        h[0x10 + i] = v;
    }
    h[0x32] = spec.black_first as u8;
    h[0x33] = spec.result;
    for (off, text) in [
        (0x50, &spec.title),
        (0xD0, &spec.event),
        (0x130, &spec.red),
        (0x140, &spec.black),
    ] {
        let b = gbk(text);
        h[off] = b.len() as u8;
        h[off + 1..off + 1 + b.len()].copy_from_slice(&b);
    }

    let mut body = Vec::new();
    let plain = spec.version <= 10;
    let record = |body: &mut Vec<u8>, from: u8, to: u8, next: bool, alt: bool, c: Option<&str>| {
        let mut flags = 0u8;
        if plain {
            if next {
                flags |= 0xF0;
            }
            if alt {
                flags |= 0x0F;
            }
        } else {
            if next {
                flags |= 0x80;
            }
            if alt {
                flags |= 0x40;
            }
            if c.is_some() {
                flags |= 0x20;
            }
        }
        body.extend_from_slice(&[from, to, flags, 0]);
        let text = c.map(gbk).unwrap_or_default();
        if plain || c.is_some() {
            let len = text.len() as u32 + if plain { 0 } else { k.comment };
            body.extend_from_slice(&len.to_le_bytes());
            body.extend_from_slice(&text);
        }
    };
    record(
        &mut body,
        0,
        0,
        !spec.moves.is_empty(),
        false,
        spec.game_comment.as_deref(),
    );
    fn lines(body: &mut Vec<u8>, nodes: &[WNode], k: &Keys, record: &RecordFn<'_>) {
        for (i, n) in nodes.iter().enumerate() {
            let from = code(&n.mv[..2]).wrapping_add(0x18).wrapping_add(k.from);
            let to = code(&n.mv[2..]).wrapping_add(0x20).wrapping_add(k.to);
            record(
                body,
                from,
                to,
                !n.children.is_empty(),
                i + 1 < nodes.len(),
                n.comment.as_deref(),
            );
            lines(body, &n.children, k, record);
        }
    }
    lines(&mut body, &spec.moves, &k, &record);
    for (i, b) in body.iter_mut().enumerate() {
        *b = b.wrapping_add(k.stream[(1024 + i) % 32]);
    }
    h.extend_from_slice(&body);
    h
}
