//! A small element tree read with quick-xml: names without their namespace prefix, text
//! unescaped and trimmed. FA(3) has no mixed content, so this is all the reader needs.

use quick_xml::Reader;
use quick_xml::events::Event;

use super::super::Error;

/// An element: its local name, its text and its children.
#[derive(Debug, Default, Clone)]
pub(crate) struct Node {
    pub(crate) name: String,
    pub(crate) text: String,
    pub(crate) children: Vec<Node>,
}

impl Node {
    /// The first child with this name.
    pub(crate) fn child(&self, name: &str) -> Option<&Node> {
        self.children.iter().find(|c| c.name == name)
    }

    /// Every child with this name.
    pub(crate) fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Node> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }

    /// The text of the first child with this name, when not empty.
    pub(crate) fn text_of(&self, name: &str) -> Option<&str> {
        self.child(name)
            .map(|c| c.text.as_str())
            .filter(|t| !t.is_empty())
    }

    /// The text at a path of child names (`DaneIdentyfikacyjne/NIP`).
    pub(crate) fn at(&self, path: &str) -> Option<&str> {
        let mut node = self;
        let mut parts = path.split('/').peekable();
        while let Some(p) = parts.next() {
            if parts.peek().is_none() {
                return node.text_of(p);
            }
            node = node.child(p)?;
        }
        None
    }
}

fn local(name: &[u8]) -> String {
    let s = String::from_utf8_lossy(name);
    s.rsplit(':').next().unwrap_or("").to_string()
}

/// Parse a document into its root element.
pub(crate) fn parse(xml: &str) -> Result<Node, Error> {
    let mut r = Reader::from_str(xml);
    let mut stack: Vec<Node> = vec![Node::default()];
    let bad = |e: &dyn std::fmt::Display| Error::Invalid(format!("XML: {e}"));
    loop {
        match r.read_event().map_err(|e| bad(&e))? {
            Event::Start(e) => stack.push(Node {
                name: local(e.name().as_ref()),
                ..Node::default()
            }),
            Event::Empty(e) => {
                let node = Node {
                    name: local(e.name().as_ref()),
                    ..Node::default()
                };
                stack.last_mut().expect("root").children.push(node);
            }
            Event::End(_) => {
                let mut node = stack.pop().expect("open element");
                node.text = node.text.trim().to_string();
                let parent = stack.last_mut().ok_or_else(|| bad(&"unbalanced"))?;
                parent.children.push(node);
            }
            Event::Text(t) => {
                let raw = t.decode().map_err(|e| bad(&e))?;
                if let Some(top) = stack.last_mut() {
                    top.text.push_str(&raw);
                }
            }
            Event::CData(t) => {
                if let Some(top) = stack.last_mut() {
                    top.text.push_str(&String::from_utf8_lossy(&t));
                }
            }
            Event::GeneralRef(e) => {
                let name = String::from_utf8_lossy(&e);
                let text = quick_xml::escape::unescape(&format!("&{name};"))
                    .map_err(|e| bad(&e))?
                    .to_string();
                if let Some(top) = stack.last_mut() {
                    top.text.push_str(&text);
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    let mut doc = stack.pop().ok_or_else(|| bad(&"empty"))?;
    doc.children.pop().ok_or_else(|| bad(&"no root element"))
}
