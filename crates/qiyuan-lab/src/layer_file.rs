//! Layers of [`crate::layers`] on disk, so that a search of hours can be
//! killed and resumed: one file a layer, `layer-DD.bin`, written under a
//! temporary name and renamed once complete (a file with the final name is
//! whole). A header names the race (start, target, holes allowed), the
//! budget and the depth, so a store of another search is refused rather
//! than mixed in. Little-endian throughout:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | `QYLAYER1` |
//! | 4, 4 | budget, depth |
//! | 16, 16, 16 | start, target, allowed holes (cell bit sets) |
//! | 4, 4 | buckets ([`BUCKETS`]), 0 |
//! | 8 | positions |
//! | 8 × buckets | positions per bucket |
//! | 8 × positions | the keys, bucket after bucket, each bucket sorted |

use std::fs::{self, File};
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use crate::layers::{BUCKETS, Layer};
use crate::solo::Race;

const MAGIC: &[u8; 8] = b"QYLAYER1";

/// Bytes before the bucket lengths.
const FIXED: usize = 8 + 4 + 4 + 3 * 16 + 4 + 4 + 8;

/// What a layer file says it holds (its depth aside).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Header {
    budget: u32,
    start: u128,
    target: u128,
    allowed: u128,
}

impl Header {
    pub(crate) fn new(race: &Race, budget: u32) -> Header {
        Header {
            budget,
            start: race.start(),
            target: race.target(),
            allowed: race.allowed(),
        }
    }
}

/// Two consecutive layers read back, and every layer's size up to them.
pub(crate) struct Resumed {
    pub(crate) counts: Vec<usize>,
    pub(crate) prev: Layer,
    pub(crate) cur: Layer,
}

/// A directory of layer files for one search.
pub(crate) struct LayerStore {
    dir: PathBuf,
    header: Header,
}

fn invalid(what: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what)
}

impl LayerStore {
    /// The store in `dir` (made if missing).
    pub(crate) fn open(dir: &Path, header: Header) -> io::Result<LayerStore> {
        fs::create_dir_all(dir)?;
        Ok(LayerStore {
            dir: dir.to_path_buf(),
            header,
        })
    }

    fn path(&self, depth: u32) -> PathBuf {
        self.dir.join(format!("layer-{depth:02}.bin"))
    }

    /// Writes layer `depth`, replacing the file only once it is complete.
    pub(crate) fn write(&self, depth: u32, layer: &Layer) -> io::Result<()> {
        let tmp = self.dir.join(format!("layer-{depth:02}.tmp"));
        let mut w = BufWriter::with_capacity(1 << 20, File::create(&tmp)?);
        w.write_all(MAGIC)?;
        w.write_all(&self.header.budget.to_le_bytes())?;
        w.write_all(&depth.to_le_bytes())?;
        for bits in [self.header.start, self.header.target, self.header.allowed] {
            w.write_all(&bits.to_le_bytes())?;
        }
        w.write_all(&(BUCKETS as u32).to_le_bytes())?;
        w.write_all(&0u32.to_le_bytes())?;
        w.write_all(&(layer.len() as u64).to_le_bytes())?;
        for b in 0..BUCKETS {
            w.write_all(&(layer.bucket(b).len() as u64).to_le_bytes())?;
        }
        for b in 0..BUCKETS {
            for k in layer.bucket(b) {
                w.write_all(&k.to_le_bytes())?;
            }
        }
        w.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        fs::rename(&tmp, self.path(depth))
    }

    /// Reads a file's header and bucket lengths: `None` if there is no
    /// file, an error if it belongs to another search or is cut short.
    fn read_head(&self, depth: u32) -> io::Result<Option<(BufReader<File>, Vec<usize>)>> {
        let file = match File::open(self.path(depth)) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        let size = file.metadata()?.len();
        let mut r = BufReader::with_capacity(1 << 20, file);
        let mut fixed = [0u8; FIXED];
        r.read_exact(&mut fixed)?;
        let u32_at = |i: usize| u32::from_le_bytes(fixed[i..i + 4].try_into().expect("4 bytes"));
        let u128_at = |i: usize| u128::from_le_bytes(fixed[i..i + 16].try_into().expect("16"));
        let found = Header {
            budget: u32_at(8),
            start: u128_at(16),
            target: u128_at(32),
            allowed: u128_at(48),
        };
        let name = self.path(depth).display().to_string();
        if &fixed[..8] != MAGIC || u32_at(12) != depth || u32_at(64) != BUCKETS as u32 {
            return Err(invalid(format!("{name}: not layer {depth} of this format")));
        }
        if found != self.header {
            return Err(invalid(format!(
                "{name}: written for budget {} or another race (want budget {})",
                found.budget, self.header.budget
            )));
        }
        let total = u64::from_le_bytes(fixed[72..80].try_into().expect("8 bytes"));
        let mut lens = vec![0usize; BUCKETS];
        let mut word = [0u8; 8];
        for len in &mut lens {
            r.read_exact(&mut word)?;
            *len = u64::from_le_bytes(word) as usize;
        }
        let whole = (FIXED + 8 * BUCKETS) as u64 + 8 * total;
        if lens.iter().sum::<usize>() as u64 != total || size != whole {
            return Err(invalid(format!("{name}: {size} bytes, want {whole}")));
        }
        Ok(Some((r, lens)))
    }

    fn read(&self, depth: u32) -> io::Result<Layer> {
        let (mut r, lens) = self
            .read_head(depth)?
            .ok_or_else(|| invalid(format!("layer {depth} is missing")))?;
        let mut buckets = Vec::with_capacity(BUCKETS);
        let mut bytes = Vec::new();
        for len in lens {
            bytes.resize(8 * len, 0);
            r.read_exact(&mut bytes)?;
            let keys: Vec<u64> = bytes
                .chunks_exact(8)
                .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
                .collect();
            buckets.push(keys);
        }
        Layer::from_buckets(buckets)
            .ok_or_else(|| invalid(format!("layer {depth}: buckets not sorted")))
    }

    /// The last two layers of depth at most `last` found (consecutive from
    /// 0), or `None` if layer 0 is not there.
    pub(crate) fn resume(&self, last: u32) -> io::Result<Option<Resumed>> {
        let mut counts = Vec::new();
        for depth in 0..=last {
            match self.read_head(depth)? {
                Some((_, lens)) => counts.push(lens.iter().sum()),
                None => break,
            }
        }
        let Some(top) = (counts.len() as u32).checked_sub(1) else {
            return Ok(None);
        };
        let prev = if top == 0 {
            Layer::empty()
        } else {
            self.read(top - 1)?
        };
        let cur = self.read(top)?;
        Ok(Some(Resumed { counts, prev, cur }))
    }
}
