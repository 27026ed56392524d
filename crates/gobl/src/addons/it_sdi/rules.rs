//! `it-sdi-v1` validation: what a FatturaPA document needs, with the reference's rule ids
//! (`GOBL-IT-SDI-<object>-<nn>`).

use crate::json::Value;

use super::{DOCUMENT_TYPE, EXEMPT, FISCAL_REGIME, FORMAT, FUND_TYPE, PAYMENT_MEANS, RETAINED};
use crate::bill::val::{Obj, get};
use crate::fault::Fault;
use crate::regimes::it::FISCAL_CODE;
use crate::regimes::it::walk::{self, Path, Rules, array, entries, has_ext, object, present, text};
use crate::tax::defs::Doc;

/// Retained categories of the Italian regime, which need a withholding type.
const RETAINED_CATEGORIES: &[&str] = &["IRPEF", "IRES", "INPS", "ENASARCO", "ENPAM", "CP"];

/// Adds the faults of an invoice under `it-sdi-v1`.
pub(super) fn validate(doc: &Doc, faults: &mut Vec<Fault>) {
    let mut c = Rules {
        family: "GOBL-IT-SDI",
        faults,
    };
    invoice(&mut c, doc);
    supplier(&mut c, doc);
    customer(&mut c, doc);
    lines(&mut c, doc);
    ordering(&mut c, doc);
    charges(&mut c, doc);
    combos(&mut c, doc);
    addresses(&mut c, doc);
    payment(&mut c, doc);
}

/// Whether every character is in the Latin-1 range, as FatturaPA's encoding requires.
pub(super) fn latin1(s: &str) -> bool {
    s.chars().all(|ch| u32::from(ch) <= 0xFF)
}

fn invoice(c: &mut Rules, doc: &Doc) {
    c.check(
        walk::convertible_to_eur(doc),
        "doc",
        "BILL-INVOICE-22",
        "invoice must be in EUR or provide exchange rate for conversion",
    );
    let tax = object(doc, "tax");
    c.check(
        tax.is_some(),
        "doc.tax",
        "BILL-INVOICE-01",
        "tax is required",
    );
    if let Some(tax) = tax {
        c.check(
            has_ext(tax, FORMAT) && has_ext(tax, DOCUMENT_TYPE),
            "doc.tax.ext",
            "BILL-INVOICE-02",
            "tax requires 'it-sdi-document-type' and 'it-sdi-format' extensions",
        );
    }
    let instructions_needed = object(doc, "payment")
        .and_then(|p| object(p, "terms"))
        .is_some_and(|t| !array(t, "due_dates").is_empty());
    if instructions_needed {
        let given = object(doc, "payment").is_some_and(|p| object(p, "instructions").is_some());
        c.check(
            given,
            "doc",
            "BILL-INVOICE-21",
            "payment instructions are required when terms with due dates are present",
        );
    }
}

fn supplier(c: &mut Rules, doc: &Doc) {
    let Some(s) = object(doc, "supplier") else {
        return;
    };
    let p = Path::Root("doc.supplier");
    c.check(
        latin1(text(s, "name")),
        format_args!("{p}.name"),
        "BILL-INVOICE-03",
        "supplier name must use Latin-1 characters",
    );
    c.check(
        present(s.get("addresses")),
        format_args!("{p}.addresses"),
        "BILL-INVOICE-04",
        "supplier addresses are required",
    );
    c.check(
        has_ext(s, FISCAL_REGIME),
        format_args!("{p}.ext"),
        "BILL-INVOICE-05",
        "supplier requires 'it-sdi-fiscal-regime' extension",
    );
    if let Some(reg) = object(s, "registration") {
        c.check(
            present(reg.get("entry")),
            format_args!("{p}.registration.entry"),
            "BILL-INVOICE-06",
            "supplier registration entry is required when registration is present",
        );
        c.check(
            present(reg.get("office")),
            format_args!("{p}.registration.office"),
            "BILL-INVOICE-07",
            "supplier registration office is required when registration is present",
        );
    }
    if walk::is_italian(s) {
        entries(s, "telephones", &p, |tp, tel| {
            let n = text(tel, "num").len();
            c.check(
                n == 0 || (5..=12).contains(&n),
                format_args!("{tp}.num"),
                "BILL-INVOICE-08",
                "Italian telephone number length must be between 5 and 12",
            );
        });
    }
}

fn customer(c: &mut Rules, doc: &Doc) {
    let Some(cus) = object(doc, "customer") else {
        c.check(
            false,
            "doc.customer",
            "BILL-INVOICE-09",
            "customer is required",
        );
        return;
    };
    let p = "doc.customer";
    let name = text(cus, "name");
    let tax_id = object(cus, "tax_id");
    let tax_code = tax_id.map(|t| text(t, "code")).unwrap_or("");
    c.check(
        latin1(name),
        format_args!("{p}.name"),
        "BILL-INVOICE-10",
        "customer name must use Latin-1 characters",
    );
    c.check(
        tax_id.is_some(),
        format_args!("{p}.tax_id"),
        "BILL-INVOICE-11",
        "customer tax ID is required",
    );
    c.check(
        present(cus.get("addresses")),
        format_args!("{p}.addresses"),
        "BILL-INVOICE-12",
        "customer addresses are required",
    );
    let has_people = cus.get("people").is_some_and(|v| !v.is_null());
    if !tax_code.is_empty() || !has_people {
        c.check(
            !name.is_empty(),
            "doc",
            "BILL-INVOICE-13",
            "customer name is required",
        );
    }
    if name.is_empty() {
        c.check(
            present(cus.get("people")),
            "doc",
            "BILL-INVOICE-14",
            "customer people are required when name is empty",
        );
    }
    if !walk::is_italian(cus) {
        return;
    }
    let has_fiscal_code = array(cus, "identities")
        .iter()
        .any(|i| i.get("key").and_then(Value::as_str) == Some(FISCAL_CODE));
    if !has_fiscal_code && tax_id.is_some() {
        c.check(
            !tax_code.is_empty(),
            format_args!("{p}.tax_id.code"),
            "BILL-INVOICE-15",
            "customer tax ID code is required for Italian parties without fiscal code",
        );
    }
    if tax_code.is_empty() {
        c.check(
            has_fiscal_code,
            format_args!("{p}.identities"),
            "BILL-INVOICE-16",
            "customer requires identity with key 'it-fiscal-code'",
        );
    }
}

fn lines(c: &mut Rules, doc: &Doc) {
    entries(doc, "lines", &Path::Root("doc"), |lp, line| {
        c.check(
            walk::has_category(line, "VAT"),
            lp,
            "BILL-INVOICE-17",
            "line must have VAT tax category",
        );
        if let Some(item) = object(line, "item") {
            c.check(
                latin1(text(item, "name")),
                format_args!("{lp}.item.name"),
                "BILL-INVOICE-18",
                "item name must use Latin-1 characters",
            );
        }
    });
}

/// Despatch documents belong to deferred invoices only, and need their issue date.
fn ordering(c: &mut Rules, doc: &Doc) {
    let Some(ordering) = object(doc, "ordering") else {
        return;
    };
    let p = Path::Root("doc.ordering");
    if !walk::has_tag(doc, "deferred") {
        c.check(
            !present(ordering.get("despatch")),
            format_args!("{p}.despatch"),
            "BILL-INVOICE-20",
            "despatch can only be set when invoice has deferred tag",
        );
        return;
    }
    entries(ordering, "despatch", &p, |dp, d| {
        c.check(
            present(d.get("issue_date")),
            format_args!("{dp}.issue_date"),
            "BILL-INVOICE-19",
            "despatch issue date is required",
        );
    });
}

/// A fund contribution (cassa previdenziale) charge needs its percentage, fund type and VAT.
fn charges(c: &mut Rules, doc: &Doc) {
    entries(doc, "charges", &Path::Root("doc"), |cp, ch| {
        if !text(ch, "key").split('+').any(|k| k == "fund-contribution") {
            return;
        }
        c.check(
            present(ch.get("percent")),
            format_args!("{cp}.percent"),
            "BILL-CHARGE-01",
            "fund contribution charge requires a percentage",
        );
        c.check(
            has_ext(ch, FUND_TYPE),
            format_args!("{cp}.ext"),
            "BILL-CHARGE-02",
            "fund contribution charge requires 'it-sdi-fund-type' extension",
        );
        c.check(
            walk::has_category(ch, "VAT"),
            format_args!("{cp}.taxes"),
            "BILL-CHARGE-03",
            "fund contribution charge must have VAT tax category",
        );
    });
}

/// VAT without a percent needs its exemption nature; retained taxes their withholding type.
fn combos(c: &mut Rules, doc: &Doc) {
    walk::combos(doc, |p, combo| {
        let cat = text(combo, "cat");
        if cat == "VAT" && !present(get(combo, "percent")) {
            c.check(
                has_ext(combo, EXEMPT),
                format_args!("{p}.ext"),
                "TAX-COMBO-01",
                "VAT tax combo without percent requires 'it-sdi-exempt' extension",
            );
        }
        if RETAINED_CATEGORIES.contains(&cat) {
            c.check(
                has_ext(combo, RETAINED),
                format_args!("{p}.ext"),
                "TAX-COMBO-02",
                "retained tax combo requires 'it-sdi-retained' extension",
            );
        }
    });
}

/// Every postal address of the document.
fn addresses(c: &mut Rules, doc: &Doc) {
    walk::objects(doc, &Path::Root("doc"), &mut |path, o| {
        entries(o, "addresses", path, |ap, a| address(c, ap, a));
        if let Some(branch) = object(o, "branch") {
            address(c, &path.member("branch"), branch);
        }
    });
}

fn address(c: &mut Rules, p: &Path, a: &Obj) {
    let field = |k| p.member(k);
    c.check(
        present(get(a, "street")) || present(get(a, "po_box")),
        p,
        "ORG-ADDRESS-01",
        "address either street or post office box must be set",
    );
    c.check(
        latin1(text(a, "street")),
        field("street"),
        "ORG-ADDRESS-02",
        "address street must use Latin-1 characters",
    );
    c.check(
        latin1(text(a, "po_box")),
        field("po_box"),
        "ORG-ADDRESS-03",
        "address post office box must use Latin-1 characters",
    );
    c.check(
        present(get(a, "country")),
        field("country"),
        "ORG-ADDRESS-04",
        "address country is required",
    );
    let locality = text(a, "locality");
    c.check(
        !locality.is_empty(),
        field("locality"),
        "ORG-ADDRESS-05",
        "address locality is required",
    );
    c.check(
        latin1(locality),
        field("locality"),
        "ORG-ADDRESS-06",
        "address locality must use Latin-1 characters",
    );
    if text(a, "country") == "IT" {
        let code = text(a, "code");
        c.check(
            !code.is_empty(),
            field("code"),
            "ORG-ADDRESS-07",
            "Italian address code is required",
        );
        c.check(
            code.is_empty() || (code.len() == 5 && code.bytes().all(|b| b.is_ascii_digit())),
            field("code"),
            "ORG-ADDRESS-08",
            "Italian address code must be 5 digits",
        );
    }
}

/// Payment instructions and advances need their SDI payment means.
fn payment(c: &mut Rules, doc: &Doc) {
    let Some(pay) = object(doc, "payment") else {
        return;
    };
    if let Some(instr) = object(pay, "instructions") {
        c.check(
            has_ext(instr, PAYMENT_MEANS),
            "doc.payment.instructions.ext",
            "PAY-INSTRUCTIONS-01",
            "payment instructions require 'it-sdi-payment-means' extension",
        );
    }
    entries(pay, "advances", &Path::Root("doc.payment"), |ap, adv| {
        c.check(
            has_ext(adv, PAYMENT_MEANS),
            format_args!("{ap}.ext"),
            "PAY-RECORD-01",
            "payment advance requires 'it-sdi-payment-means' extension",
        );
    });
}
