//! Profiles as data: each output [`Format`] is a [`Context`] naming its syntax, the
//! CustomizationID (BT-24) and ProfileID (BT-23) it declares, the GOBL add-ons it needs and the
//! rules its output is checked against. Writers ask the context; they never test for a profile.

/// The XML syntax of an e-invoice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Syntax {
    /// OASIS UBL 2.1 `Invoice` or `CreditNote`.
    Ubl,
    /// UN/CEFACT Cross Industry Invoice D16B.
    Cii,
}

impl Syntax {
    /// `ubl` or `cii`.
    pub fn as_str(self) -> &'static str {
        match self {
            Syntax::Ubl => "ubl",
            Syntax::Cii => "cii",
        }
    }
}

/// The rule set a profile's documents must pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RuleSet {
    /// EN 16931 alone.
    En16931,
    /// EN 16931 and Peppol BIS Billing 3.0.
    Peppol,
    /// EN 16931 and XRechnung 3.
    XRechnung,
}

/// An output format: a syntax under a profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// UBL, EN 16931.
    Ubl,
    /// UBL, Peppol BIS Billing 3.0.
    UblPeppol,
    /// UBL, XRechnung 3.
    UblXrechnung,
    /// CII, EN 16931.
    Cii,
    /// CII, XRechnung 3.
    CiiXrechnung,
    /// CII, Factur-X 1.0 EN 16931 profile.
    CiiFacturx,
    /// CII, ZUGFeRD 2 EN 16931 profile.
    CiiZugferd,
}

/// What a format declares and needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Context {
    /// The format.
    pub format: Format,
    /// Its syntax.
    pub syntax: Syntax,
    /// The name `folio convert --to` takes.
    pub name: &'static str,
    /// BT-24, the specification identifier.
    pub customization_id: &'static str,
    /// BT-23, the business process, when the profile sets one.
    pub profile_id: Option<&'static str>,
    /// GOBL add-ons a document must carry (added before building when missing).
    pub addons: &'static [&'static str],
    /// The rules the output must pass.
    pub rules: RuleSet,
    /// The file name the document is attached under.
    pub file_name: &'static str,
    /// Peppol wants a buyer reference or an order reference (R003): write order `NA` when the
    /// document has neither, as Peppol's guide allows.
    pub needs_reference: bool,
}

const EN16931: &str = "urn:cen.eu:en16931:2017";
const PEPPOL: &str = "urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0";
const XRECHNUNG: &str = "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0";
const PEPPOL_PROCESS: &str = "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0";

const CONTEXTS: &[Context] = &[
    Context {
        format: Format::Ubl,
        syntax: Syntax::Ubl,
        name: "ubl",
        customization_id: EN16931,
        profile_id: None,
        addons: &["eu-en16931-v2017"],
        rules: RuleSet::En16931,
        file_name: "invoice-ubl.xml",
        needs_reference: false,
    },
    Context {
        format: Format::UblPeppol,
        syntax: Syntax::Ubl,
        name: "ubl-peppol",
        customization_id: PEPPOL,
        profile_id: Some(PEPPOL_PROCESS),
        addons: &["eu-en16931-v2017"],
        rules: RuleSet::Peppol,
        file_name: "invoice-peppol.xml",
        needs_reference: true,
    },
    Context {
        format: Format::UblXrechnung,
        syntax: Syntax::Ubl,
        name: "ubl-xrechnung",
        customization_id: XRECHNUNG,
        profile_id: Some(PEPPOL_PROCESS),
        addons: &["eu-en16931-v2017", "de-xrechnung-v3"],
        rules: RuleSet::XRechnung,
        file_name: "xrechnung-ubl.xml",
        needs_reference: false,
    },
    Context {
        format: Format::Cii,
        syntax: Syntax::Cii,
        name: "cii",
        customization_id: EN16931,
        profile_id: None,
        addons: &["eu-en16931-v2017"],
        rules: RuleSet::En16931,
        file_name: "invoice-cii.xml",
        needs_reference: false,
    },
    Context {
        format: Format::CiiXrechnung,
        syntax: Syntax::Cii,
        name: "cii-xrechnung",
        customization_id: XRECHNUNG,
        profile_id: Some(PEPPOL_PROCESS),
        addons: &["eu-en16931-v2017", "de-xrechnung-v3"],
        rules: RuleSet::XRechnung,
        file_name: "xrechnung-cii.xml",
        needs_reference: false,
    },
    Context {
        format: Format::CiiFacturx,
        syntax: Syntax::Cii,
        name: "cii-facturx",
        customization_id: EN16931,
        profile_id: None,
        addons: &["eu-en16931-v2017", "fr-facturx-v1"],
        rules: RuleSet::En16931,
        file_name: "factur-x.xml",
        needs_reference: false,
    },
    Context {
        format: Format::CiiZugferd,
        syntax: Syntax::Cii,
        name: "cii-zugferd",
        customization_id: EN16931,
        profile_id: None,
        addons: &["eu-en16931-v2017"],
        rules: RuleSet::En16931,
        file_name: "zugferd-invoice.xml",
        needs_reference: false,
    },
];

impl Format {
    /// Every format.
    pub const ALL: [Format; 7] = [
        Format::Ubl,
        Format::UblPeppol,
        Format::UblXrechnung,
        Format::Cii,
        Format::CiiXrechnung,
        Format::CiiFacturx,
        Format::CiiZugferd,
    ];

    /// What this format declares and needs.
    pub fn context(self) -> &'static Context {
        CONTEXTS
            .iter()
            .find(|c| c.format == self)
            .expect("every format has a context")
    }

    /// The format `folio convert --to NAME` names.
    pub fn from_name(name: &str) -> Option<Format> {
        CONTEXTS.iter().find(|c| c.name == name).map(|c| c.format)
    }

    /// The format whose documents are attached under this file name.
    pub fn from_file_name(name: &str) -> Option<Format> {
        CONTEXTS
            .iter()
            .find(|c| c.file_name == name)
            .map(|c| c.format)
    }

    /// The format an Invopop `doc_type` option names for a syntax (`bis-invoice-v3`,
    /// `xrechnung-invoice-v2`, `facturx-v1`, `zugferd-v2`, `xrechnung-v3`, ...). An empty
    /// `doc_type` is the syntax's plain EN 16931 format.
    pub fn from_doc_type(syntax: Syntax, doc_type: &str) -> Option<Format> {
        let t = doc_type.trim().to_ascii_lowercase();
        let f = match (syntax, t.as_str()) {
            (Syntax::Ubl, "" | "en16931" | "en16931-v2017") => Format::Ubl,
            (Syntax::Ubl, t) if t.starts_with("bis-") || t.starts_with("peppol") => {
                Format::UblPeppol
            }
            (Syntax::Ubl, t) if t.starts_with("xrechnung") => Format::UblXrechnung,
            (Syntax::Cii, "" | "en16931" | "en16931-v2017") => Format::Cii,
            (Syntax::Cii, t) if t.starts_with("xrechnung") => Format::CiiXrechnung,
            (Syntax::Cii, t) if t.starts_with("facturx") || t.starts_with("factur-x") => {
                Format::CiiFacturx
            }
            (Syntax::Cii, t) if t.starts_with("zugferd") => Format::CiiZugferd,
            _ => return None,
        };
        Some(f)
    }
}
