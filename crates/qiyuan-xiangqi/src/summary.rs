//! Short rule summaries for players, in Chinese and English, one per rule set.
//! Written for Qiyuan (the source texts in `shared/seeds` are not quoted).

use crate::variant::Variant;

/// The language of a summary.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Lang {
    /// 中文
    Chinese,
    /// English
    English,
}

/// The rules of `variant` as Markdown, for the hall's rules page.
pub fn rules_summary(variant: Variant, lang: Lang) -> &'static str {
    match (variant, lang) {
        (Variant::Xiangqi, Lang::English) => include_str!("../rules/xiangqi.en.md"),
        (Variant::Xiangqi, Lang::Chinese) => include_str!("../rules/xiangqi.zh.md"),
        (Variant::JifenSimple, Lang::English) => include_str!("../rules/jifen-simple.en.md"),
        (Variant::JifenSimple, Lang::Chinese) => include_str!("../rules/jifen-simple.zh.md"),
        (Variant::JifenMatch, Lang::English) => include_str!("../rules/jifen-match.en.md"),
        (Variant::JifenMatch, Lang::Chinese) => include_str!("../rules/jifen-match.zh.md"),
        (Variant::JifenContest, Lang::English) => include_str!("../rules/jifen-contest.en.md"),
        (Variant::JifenContest, Lang::Chinese) => include_str!("../rules/jifen-contest.zh.md"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_set_has_both_languages_with_its_numbers() {
        for v in Variant::ALL {
            let en = rules_summary(v, Lang::English);
            let zh = rules_summary(v, Lang::Chinese);
            assert!(en.starts_with("# ") && zh.starts_with("# "));
            assert!(zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)));
            if v.is_jifen() {
                let target = v.default_target().to_string();
                assert!(en.contains(&target) && zh.contains(&target), "{v}");
            }
        }
    }
}
