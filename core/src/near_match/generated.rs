//! Seeded signatures for the differential tests: few characters and many
//! repeats, equal lengths, empty texts, non-ASCII code points, texts of 200
//! and more (where difflib hides popular characters), and near copies of
//! earlier signatures (an edit or two), so that clusters of every size form.

/// `SplitMix64`: deterministic, no dependency.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub(crate) fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// The alphabets texts are drawn from.
const ALPHABETS: [&str; 7] = ["ab", "a", "abc", "ab ", "é😀ßa", "abcdefghij", "0123456789 -"];

/// How long the texts of one input are.
#[derive(Clone, Copy)]
enum Lengths {
    /// Every fresh text this long.
    Equal(usize),
    /// Between the two, inclusive.
    Between(usize, usize),
}

/// `count` signatures of `fields` texts each, one input's worth; `long`
/// makes texts of 195 to 230 code points.
pub(crate) fn signatures(rng: &mut Rng, count: usize, fields: usize, long: bool) -> Vec<Vec<String>> {
    let alphabet: Vec<char> = rng.pick(&ALPHABETS).chars().collect();
    let lengths = if long {
        Lengths::Between(195, 230)
    } else {
        let equal = Lengths::Equal(rng.below(12));
        *rng.pick(&[equal, Lengths::Between(0, 10), Lengths::Between(5, 30)])
    };
    let mut out: Vec<Vec<String>> = Vec::with_capacity(count);
    for _ in 0..count {
        let earlier = (!out.is_empty()).then(|| out[rng.below(out.len())].clone());
        let signature = (0..fields)
            .map(|field| match (&earlier, rng.below(10)) {
                (Some(earlier), 0..=2) => earlier[field].clone(),
                (Some(earlier), 3..=5) => edited(rng, &earlier[field], &alphabet),
                _ => fresh(rng, lengths, &alphabet),
            })
            .collect();
        out.push(signature);
    }
    out
}

fn fresh(rng: &mut Rng, lengths: Lengths, alphabet: &[char]) -> String {
    let len = match lengths {
        Lengths::Equal(len) => len,
        Lengths::Between(low, high) => low + rng.below(high - low + 1),
    };
    (0..len).map(|_| *rng.pick(alphabet)).collect()
}

/// `text` after one to three edits: a substitution, an insertion, a deletion
/// or two neighbours swapped.
fn edited(rng: &mut Rng, text: &str, alphabet: &[char]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..=rng.below(3) {
        let at = rng.below(chars.len() + 1);
        match rng.below(4) {
            0 if at < chars.len() => chars[at] = *rng.pick(alphabet),
            1 => chars.insert(at, *rng.pick(alphabet)),
            2 if at < chars.len() => {
                chars.remove(at);
            }
            _ if at + 1 < chars.len() => chars.swap(at, at + 1),
            _ => {}
        }
    }
    chars.into_iter().collect()
}
