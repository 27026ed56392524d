//! The console's words in English and Spanish. The language is the `folio_lang` cookie (set by
//! the switch in the header) or else the browser's `Accept-Language`.

use axum::extract::FromRequestParts;
use axum::http::HeaderMap;
use axum::http::request::Parts;

use crate::session::cookie;

/// A language of the console.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// English.
    En,
    /// Spanish.
    Es,
}

/// The language cookie.
pub const COOKIE: &str = "folio_lang";

impl Lang {
    /// `en` or `es`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Es => "es",
        }
    }

    /// The language a code names, if the console speaks it.
    pub fn from_code(code: &str) -> Option<Lang> {
        match code.get(..2).map(str::to_ascii_lowercase).as_deref() {
            Some("en") => Some(Lang::En),
            Some("es") => Some(Lang::Es),
            _ => None,
        }
    }

    /// The cookie's language, else the first of `Accept-Language` the console speaks, else
    /// English.
    pub fn of(headers: &HeaderMap) -> Lang {
        if let Some(lang) = cookie(headers, COOKIE).and_then(|c| Lang::from_code(&c)) {
            return lang;
        }
        headers
            .get(axum::http::header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok())
            .into_iter()
            .flat_map(|v| v.split(','))
            .filter_map(|tag| Lang::from_code(tag.trim()))
            .next()
            .unwrap_or(Lang::En)
    }

    /// The other language (the switch offers it).
    pub fn other(self) -> Lang {
        match self {
            Lang::En => Lang::Es,
            Lang::Es => Lang::En,
        }
    }

    /// The label `key` in this language (the key itself when there is none).
    pub fn t(self, key: &'static str) -> &'static str {
        match LABELS.iter().find(|(k, _, _)| *k == key) {
            Some((_, en, es)) => match self {
                Lang::En => en,
                Lang::Es => es,
            },
            None => key,
        }
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Lang {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Lang, Self::Rejection> {
        Ok(Lang::of(&parts.headers))
    }
}

/// Every label: key, English, Spanish.
const LABELS: &[(&str, &str, &str)] = &[
    ("language", "Español", "English"),
    ("skip", "Skip to content", "Saltar al contenido"),
    ("envelopes", "Envelopes", "Sobres"),
    ("upload", "Upload", "Subir"),
    ("jobs", "Jobs", "Trabajos"),
    ("workflows", "Workflows", "Flujos"),
    ("series", "Series", "Series"),
    ("sign_in", "Sign in", "Iniciar sesión"),
    ("sign_out", "Sign out", "Cerrar sesión"),
    ("token", "API token", "Token de la API"),
    (
        "token_help",
        "Paste a token of your workspace (folio token create, or the token file written on first start).",
        "Pegue un token de su espacio de trabajo (folio token create, o el fichero token escrito en el primer arranque).",
    ),
    (
        "link_help",
        "This one-time link signs you into the console.",
        "Este enlace de un solo uso le da acceso a la consola.",
    ),
    ("continue", "Continue", "Continuar"),
    (
        "bad_token",
        "That token was not accepted",
        "Ese token no se ha aceptado",
    ),
    (
        "bad_link",
        "This link has been used or has expired. Ask for a new one with folio console-link.",
        "Este enlace ya se usó o ha caducado. Pida otro con folio console-link.",
    ),
    ("search", "Search", "Buscar"),
    (
        "search_help",
        "Number, party name or tax id",
        "Número, nombre o NIF de una parte",
    ),
    ("type", "Type", "Tipo"),
    ("state", "State", "Estado"),
    ("any", "Any", "Cualquiera"),
    ("from", "From", "Desde"),
    ("to", "To", "Hasta"),
    ("filter", "Filter", "Filtrar"),
    ("created", "Created", "Creado"),
    ("key", "Key", "Clave"),
    ("id", "Id", "Id"),
    ("files", "Files", "Ficheros"),
    ("next_page", "Next page", "Página siguiente"),
    ("first_page", "First page", "Primera página"),
    ("none_found", "Nothing here yet.", "Aún no hay nada."),
    ("summary", "Summary", "Resumen"),
    ("number", "Number", "Número"),
    ("supplier", "Supplier", "Proveedor"),
    ("customer", "Customer", "Cliente"),
    ("issue_date", "Issue date", "Fecha de emisión"),
    ("currency", "Currency", "Moneda"),
    ("sum", "Sum", "Suma"),
    ("tax", "Tax", "Impuestos"),
    ("payable", "Payable", "A pagar"),
    ("pdf", "PDF", "PDF"),
    ("pdf_title", "The invoice as a PDF", "La factura en PDF"),
    ("open_pdf", "Open the PDF", "Abrir el PDF"),
    ("gobl_json", "GOBL JSON", "JSON de GOBL"),
    ("attachments", "Attachments", "Adjuntos"),
    ("download", "Download", "Descargar"),
    ("states", "State history", "Historial de estados"),
    ("versions", "Versions", "Versiones"),
    ("version", "Version", "Versión"),
    ("notes", "Notes", "Notas"),
    ("source", "Source", "Origen"),
    ("faults", "Faults", "Fallos"),
    ("signed", "Signed", "Firmado"),
    ("yes", "yes", "sí"),
    ("no", "no", "no"),
    (
        "upload_help",
        "A GOBL JSON document or envelope, or a UBL or CII invoice (XML).",
        "Un documento o sobre GOBL en JSON, o una factura UBL o CII (XML).",
    ),
    ("file", "File", "Fichero"),
    ("send", "Upload and store", "Subir y guardar"),
    (
        "upload_failed",
        "Nothing was stored",
        "No se ha guardado nada",
    ),
    ("rule", "Rule", "Regla"),
    ("path", "Path", "Ruta"),
    ("message", "Message", "Mensaje"),
    ("status", "Status", "Estado"),
    ("workflow", "Workflow", "Flujo"),
    ("envelope", "Envelope", "Sobre"),
    ("age", "Age", "Antigüedad"),
    ("job", "Job", "Trabajo"),
    ("steps", "Steps", "Pasos"),
    ("step", "Step", "Paso"),
    ("action", "Action", "Acción"),
    ("duration", "Duration", "Duración"),
    ("events", "Events", "Eventos"),
    ("failed_step", "Failed step", "Paso fallido"),
    ("run_again", "Run again", "Ejecutar de nuevo"),
    (
        "live",
        "Following the job until it finishes…",
        "Siguiendo el trabajo hasta que termine…",
    ),
    ("run", "Run", "Ejecutar"),
    ("run_on", "Run on an envelope", "Ejecutar sobre un sobre"),
    ("envelope_id", "Envelope id", "Id del sobre"),
    ("name", "Name", "Nombre"),
    ("description", "Description", "Descripción"),
    ("draft", "draft", "borrador"),
    ("disabled", "disabled", "desactivado"),
    ("last_number", "Last number", "Último número"),
    ("next_number", "Next number", "Siguiente número"),
    ("prefix", "Prefix", "Prefijo"),
    ("not_found", "Not found", "No encontrado"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_language_comes_from_the_cookie_then_the_browser() {
        let mut h = HeaderMap::new();
        assert_eq!(Lang::of(&h), Lang::En);
        h.insert(
            "accept-language",
            "fr-FR, es-ES;q=0.8, en;q=0.5".parse().unwrap(),
        );
        assert_eq!(Lang::of(&h), Lang::Es);
        h.insert("cookie", "folio_lang=en".parse().unwrap());
        assert_eq!(Lang::of(&h), Lang::En);
    }

    #[test]
    fn every_label_has_both_languages_and_keys_are_unique() {
        let mut keys = std::collections::HashSet::new();
        for (key, en, es) in LABELS {
            assert!(keys.insert(key), "{key} twice");
            assert!(!en.is_empty() && !es.is_empty(), "{key}");
        }
        assert_eq!(Lang::Es.t("sign_out"), "Cerrar sesión");
        assert_eq!(Lang::En.t("no-such-key"), "no-such-key");
    }
}
