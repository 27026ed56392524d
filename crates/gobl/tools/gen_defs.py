#!/usr/bin/env python3
"""Write the data part of a regime's or add-on's Rust file from the reference's facts.

    python3 crates/gobl/tools/gen_defs.py regime pl      > crates/gobl/src/regimes/pl.rs
    python3 crates/gobl/tools/gen_defs.py addon it-sdi-v1 > crates/gobl/src/addons/it_sdi.rs

Reads `../shared/gobl/data/{regimes,addons}/*.json` (reference data, never committed) and
prints folio's own static table for it. The output is a starting point that is then owned
by hand: hooks (tax-id check, normalisation, validation) and scenario filters are code that
the data cannot hold.
"""
import json
import pathlib
import sys

DATA = pathlib.Path(__file__).resolve().parents[4] / "shared/gobl/data"
VAT_KEYS = [
    ("standard", False), ("zero", False), ("reverse-charge", True), ("exempt", True),
    ("export", True), ("intra-community", True), ("outside-scope", True),
]


def q(s):
    return json.dumps(s, ensure_ascii=False)


def strs(items):
    return "&[" + ", ".join(q(i) for i in items) + "]"


def pairs(d):
    return "&[" + ", ".join(f"({q(k)}, {q(v)})" for k, v in (d or {}).items()) + "]"


def opt(v):
    return f"Some({q(v)})" if v is not None else "None"


def date(s):
    return f"Some({s.replace('-', '')})" if s else "None"


def en(d):
    return (d or {}).get("en") or next(iter((d or {}).values()), "")


def scenarios(defs, indent="        "):
    out = []
    for group in defs or []:
        if group.get("schema") != "bill/invoice":
            continue
        for s in group["list"]:
            fields = []
            if s.get("type"):
                fields.append(f"types: {strs(s['type'])}")
            if s.get("tags"):
                fields.append(f"tags: {strs(s['tags'])}")
            if s.get("cat"):
                fields.append(f"cats: {strs(s['cat'])}")
            n = s.get("note")
            if n:
                fields.append(
                    "note: Some(ScenarioNote { "
                    f"cat: {opt(n.get('cat'))}, key: {q(n.get('key', ''))}, src: {opt(n.get('src'))}, "
                    f"code: {opt(n.get('code'))}, text: {q(n.get('text', ''))} }})"
                )
            ext = dict(s.get("ext") or {})
            ext.update(s.get("codes") or {})
            if ext:
                fields.append(f"ext: {pairs(ext)}")
            name = en(s.get("name"))
            comment = f"// {name}\n{indent}" if name else ""
            out.append(f"{indent}{comment}Scenario {{ {', '.join(fields)}, ..Scenario::NONE }},")
    return "\n".join(out)


def corrections(defs):
    for c in defs or []:
        if c.get("schema") == "bill/invoice":
            parts = [f"types: {strs(c.get('types') or [])}"]
            if c.get("extensions"):
                parts.append(f"extensions: {strs(c['extensions'])}")
            if c.get("stamps"):
                parts.append(f"stamps: {strs(c['stamps'])}")
            if c.get("reason_required"):
                parts.append("reason_required: true")
            if c.get("copy_tax"):
                parts.append("copy_tax: true")
            return "CorrectionDef { " + ", ".join(parts) + ", ..CorrectionDef::NONE }"
    return "CorrectionDef::NONE"


def keys(cat):
    ks = [(k["key"], bool(k.get("no_percent"))) for k in cat.get("keys") or []]
    if ks == VAT_KEYS:
        return "VAT_KEYS"
    return "&[" + ", ".join(f"KeyDef {{ key: {q(k)}, no_percent: {str(n).lower()} }}" for k, n in ks) + "]"


def rates(cat):
    out = []
    for r in cat.get("rates") or []:
        name = r.get("rate") or r.get("key")
        rkeys = r.get("keys")
        rk = "STANDARD" if rkeys == ["standard"] else strs(rkeys or [])
        vals = []
        for v in r.get("values") or []:
            vals.append(
                f"                    RateValue {{ since: {date(v.get('since'))}, percent: {q(v['percent'])}, "
                f"surcharge: {opt(v.get('surcharge'))}, ext: {pairs(v.get('ext'))} }},"
            )
        body = "\n".join(vals)
        out.append(f"                RateDef {{ rate: {q(name)}, keys: {rk}, values: &[\n{body}\n                ] }},")
    return "\n".join(out)


def rates_block(cat):
    body = rates(cat)
    return f"\n{body}\n            " if body else "\n            "


def regime(cc):
    d = json.loads((DATA / "regimes" / f"{cc}.json").read_text())
    tags = [t["key"] for g in d.get("tags") or [] if g.get("schema") == "bill/invoice" for t in g["list"]]
    cats = []
    for c in d["categories"]:
        cats.append(f"""        CategoryDef {{
            code: {q(c['code'])},
            retained: {str(bool(c.get('retained'))).lower()},
            informative: {str(bool(c.get('informative'))).lower()},
            keys: {keys(c)},
            rates: &[{rates_block(c)}],
        }},""")
    name = en(d["name"])
    rounding = d.get("calculator_rounding_rule")
    hooks = "Hooks::NONE"
    body = scenarios(d.get("scenarios"))
    scen = f"\n{body}\n    " if body else ""
    return f"""//! {name}: tax categories, keys and rates (facts from the GOBL regime definitions).

use crate::tax::defs::*;

/// The {name} regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {{
    country: {q(d['country'])},
    alt_countries: {strs(d.get('alt_country_codes') or [])},
    currency: {q(d['currency'])},
    time_zone: {q(d['time_zone'])},
    rounding: {opt(rounding)},
    invoice_tags: {strs(tags)},
    corrections: {corrections(d.get('corrections'))},
    hooks: {hooks},
    scenarios: &[{scen}],
    categories: &[
{chr(10).join(cats)}
    ],
}};
"""


def addon(key):
    d = json.loads((DATA / "addons" / f"{key}.json").read_text())
    tags = [t["key"] for g in d.get("tags") or [] if g.get("schema") == "bill/invoice" for t in g["list"]]
    exts = []
    for e in d.get("extensions") or []:
        codes = [v["code"] for v in e.get("values") or []]
        pattern = e.get("pattern")
        exts.append(f"        ExtDef {{ key: {q(e['key'])}, codes: {strs(codes)}, pattern: {opt(pattern)} }},")
    name = en(d["name"])
    imports = "AddonDef, ExtDef" if exts else "AddonDef"
    return f"""//! `{key}`: {name} (extensions, scenarios and corrections from the GOBL add-on definition).

use crate::addons::{{{imports}}};
use crate::tax::defs::*;

/// The `{key}` add-on.
#[rustfmt::skip]
pub static ADDON: AddonDef = AddonDef {{
    key: {q(key)},
    requires: {strs(d.get('requires') or [])},
    invoice_tags: {strs(tags)},
    corrections: {corrections(d.get('corrections'))},
    hooks: Hooks::NONE,
    extensions: &[
{chr(10).join(exts)}
    ],
    scenarios: &[
{scenarios(d.get('scenarios'))}
    ],
}};
"""


def tidy(text):
    """Empty lists on one line."""
    return text.replace("&[\n\n    ]", "&[]")


if __name__ == "__main__":
    kind, name = sys.argv[1], sys.argv[2]
    sys.stdout.write(tidy(regime(name) if kind == "regime" else addon(name)))
