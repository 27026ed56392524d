//! The Typst world of one render: the template, the view, the logo and the fiscal QR code as
//! in-memory files, and the fonts folio ships (DejaVu Sans, from the `dejavu` crate). Nothing
//! is read from disk or the network.

use std::sync::LazyLock;

use typst::diag::{FileError, FileResult};
use typst::foundations::{Bytes, Datetime, Duration};
use typst::syntax::{FileId, RootedPath, Source, VirtualPath, VirtualRoot};
use typst::text::{Font, FontBook};
use typst::utils::LazyHash;
use typst::{Library, LibraryExt, World};

/// Fonts and library, loaded once per process.
struct Shared {
    library: LazyHash<Library>,
    book: LazyHash<FontBook>,
    fonts: Vec<Font>,
}

static SHARED: LazyLock<Shared> = LazyLock::new(|| {
    let faces = [
        dejavu::sans::regular(),
        dejavu::sans::bold(),
        dejavu::sans::oblique(),
        dejavu::sans::bold_oblique(),
    ];
    let fonts: Vec<Font> = faces
        .into_iter()
        .flat_map(|data| Font::iter(Bytes::new(data)))
        .collect();
    Shared {
        library: LazyHash::new(Library::default()),
        book: LazyHash::new(FontBook::from_fonts(&fonts)),
        fonts,
    }
});

/// One render's files.
pub(crate) struct RenderWorld {
    main: Source,
    files: Vec<(String, Bytes)>,
    today: Datetime,
}

/// The id of a project file.
pub(crate) fn file_id(path: &str) -> FileId {
    let vpath = VirtualPath::new(path).expect("folio names its virtual files correctly");
    FileId::new(RootedPath::new(VirtualRoot::Project, vpath))
}

impl RenderWorld {
    /// A world whose main file is `template`, with `files` (`/view.json`, the logo) beside it.
    pub fn new(template: String, files: Vec<(String, Vec<u8>)>, today: Datetime) -> Self {
        RenderWorld {
            main: Source::new(file_id("/main.typ"), template),
            files: files.into_iter().map(|(p, b)| (p, Bytes::new(b))).collect(),
            today,
        }
    }
}

impl World for RenderWorld {
    fn library(&self) -> &LazyHash<Library> {
        &SHARED.library
    }

    fn book(&self) -> &LazyHash<FontBook> {
        &SHARED.book
    }

    fn main(&self) -> FileId {
        self.main.id()
    }

    fn source(&self, id: FileId) -> FileResult<Source> {
        if id == self.main.id() {
            Ok(self.main.clone())
        } else {
            Err(FileError::NotSource)
        }
    }

    fn file(&self, id: FileId) -> FileResult<Bytes> {
        let path = id.get().vpath().get_with_slash();
        self.files
            .iter()
            .find(|(p, _)| p == path)
            .map(|(_, b)| b.clone())
            .ok_or_else(|| FileError::NotFound(path.into()))
    }

    fn font(&self, index: usize) -> Option<Font> {
        SHARED.fonts.get(index).cloned()
    }

    fn today(&self, _offset: Option<Duration>) -> Option<Datetime> {
        Some(self.today)
    }
}
