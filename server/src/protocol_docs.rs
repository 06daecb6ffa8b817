//! The protocol pages students read (`/protocols/{name}`): docs/protocols/{en,zh-CN}/*.md,
//! carried by the binary and rendered as HTML in the viewer's language. The Markdown is
//! ours, but raw HTML in it is still shown as text, never passed through.

use arbiter_i18n::Lang;
use arbiter_match::protocol::ProtocolKind;
use pulldown_cmark::{html, CowStr, Event, Options, Parser, Tag};

macro_rules! docs {
    ($lang:literal) => {
        [
            include_str!(concat!("../../docs/protocols/", $lang, "/reversi.md")),
            include_str!(concat!("../../docs/protocols/", $lang, "/reversi-board.md")),
            include_str!(concat!("../../docs/protocols/", $lang, "/gobang.md")),
            include_str!(concat!("../../docs/protocols/", $lang, "/gomocup.md")),
            include_str!(concat!("../../docs/protocols/", $lang, "/duel.md")),
            include_str!(concat!("../../docs/protocols/", $lang, "/kit.md")),
        ]
    };
}

/// Each protocol's page, in the order of [`ProtocolKind::ALL`].
const EN: [&str; 6] = docs!("en");
const ZH: [&str; 6] = docs!("zh-CN");
const COMMON_EN: &str = include_str!("../../docs/protocols/en/common.md");
const COMMON_ZH: &str = include_str!("../../docs/protocols/zh-CN/common.md");

fn own(p: ProtocolKind, lang: Lang) -> &'static str {
    let i = ProtocolKind::ALL
        .iter()
        .position(|q| *q == p)
        .unwrap_or_default();
    match lang {
        Lang::ZhCn => ZH[i],
        _ => EN[i],
    }
}

/// The protocol a page extends (its text is included after the page's own).
fn base(p: ProtocolKind) -> Option<ProtocolKind> {
    (p == ProtocolKind::ReversiBoard).then_some(ProtocolKind::Reversi)
}

/// The whole page as Markdown: the protocol's own text, the one it extends (its title one
/// level down), then the rules for every bot.
pub fn markdown(p: ProtocolKind, lang: Lang) -> String {
    let mut out = own(p, lang).trim_end().to_string();
    if let Some(b) = base(p) {
        out.push_str("\n\n#");
        out.push_str(own(b, lang).trim_end());
    }
    out.push_str("\n\n");
    out.push_str(match lang {
        Lang::ZhCn => COMMON_ZH,
        _ => COMMON_EN,
    });
    out
}

/// The page's title: its first heading, without the Markdown.
pub fn title(p: ProtocolKind, lang: Lang) -> String {
    let first = own(p, lang).lines().next().unwrap_or_default();
    first
        .trim_start_matches('#')
        .replace('`', "")
        .trim()
        .to_string()
}

/// Markdown as HTML: tables on; raw HTML shown as text; links to another protocol's file
/// (`reversi.md`) lead to its page.
pub fn to_html(md: &str) -> String {
    let events = Parser::new_ext(md, Options::ENABLE_TABLES).map(|e| match e {
        Event::Html(s) | Event::InlineHtml(s) => Event::Text(s),
        Event::Start(Tag::Link {
            link_type,
            dest_url,
            title,
            id,
        }) => Event::Start(Tag::Link {
            link_type,
            dest_url: page_link(dest_url),
            title,
            id,
        }),
        e => e,
    });
    let mut out = String::new();
    html::push_html(&mut out, events);
    out
}

fn page_link(dest: CowStr<'_>) -> CowStr<'_> {
    match dest.strip_suffix(".md") {
        Some(name) if ProtocolKind::ALL.iter().any(|p| p.name() == name) => {
            format!("/protocols/{name}").into()
        }
        _ => dest,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_page_has_its_text_a_transcript_and_the_common_rules() {
        for lang in Lang::ALL {
            for p in ProtocolKind::ALL {
                let md = markdown(p, lang);
                assert!(md.contains(&format!("`{}`", p.name())), "{lang} {p}");
                assert!(md.contains("\n< ") && md.contains("\n> "), "{lang} {p}");
                assert!(md.contains("fflush(stdout)"), "{lang} {p}: the rules");
                let html = to_html(&md);
                assert!(html.contains("<table>") && html.contains("<pre><code>"));
                assert!(!html.contains("| ---") && !html.contains("```"), "{html}");
            }
        }
    }

    #[test]
    fn a_page_that_extends_another_carries_it_and_links_it() {
        for lang in Lang::ALL {
            let html = to_html(&markdown(ProtocolKind::ReversiBoard, lang));
            assert!(html.contains("href=\"/protocols/reversi\""), "{html}");
            assert!(html.contains("BOARD n s cells") && html.contains("START 1"));
            assert!(html.contains("PLACE r c") && html.contains("END f"));
        }
    }

    #[test]
    fn raw_html_stays_text() {
        let html = to_html("a <script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n");
        assert!(
            !html.contains("<script") && !html.contains("<img"),
            "{html}"
        );
        assert!(html.contains("&lt;script&gt;"), "{html}");
    }

    #[test]
    fn titles_read_without_markdown() {
        assert_eq!(title(ProtocolKind::Kit, Lang::En), "The kit protocol");
        assert_eq!(title(ProtocolKind::Kit, Lang::ZhCn), "kit 协议");
    }
}
