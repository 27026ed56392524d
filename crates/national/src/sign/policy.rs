//! XAdES-EPES signature policies: the identifier of the policy document and its digest,
//! as `xades:SignaturePolicyIdentifier` names them. Identifiers and digests are those the
//! reference converters (invopop/gobl.facturae, invopop/gobl.ticketbai) sign with.

/// A digest algorithm of XML signatures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DigestAlgorithm {
    /// SHA-1 (`http://www.w3.org/2000/09/xmldsig#sha1`), only where a policy's published
    /// digest is SHA-1.
    Sha1,
    /// SHA-256 (`http://www.w3.org/2001/04/xmlenc#sha256`).
    Sha256,
}

impl DigestAlgorithm {
    /// The algorithm's URI.
    pub fn uri(self) -> &'static str {
        match self {
            DigestAlgorithm::Sha1 => "http://www.w3.org/2000/09/xmldsig#sha1",
            DigestAlgorithm::Sha256 => "http://www.w3.org/2001/04/xmlenc#sha256",
        }
    }
}

/// A signature policy (XAdES-EPES).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Policy {
    /// The policy's identifier (a URL of the policy document).
    pub identifier: &'static str,
    /// The policy's description (`SigPolicyId/Description`), empty when the policy has
    /// none.
    pub description: &'static str,
    /// The algorithm of [`Policy::digest`].
    pub digest_algorithm: DigestAlgorithm,
    /// The digest of the policy document, base64.
    pub digest: &'static str,
    /// The description of the signed document (`DataObjectFormat/Description`).
    pub document_description: &'static str,
}

/// Facturae's signature policy 3.1 (the policy document's digest is SHA-1).
pub const FACTURAE_3_1: Policy = Policy {
    identifier: "http://www.facturae.es/politica_de_firma_formato_facturae/politica_de_firma_formato_facturae_v3_1.pdf",
    description: "Política de Firma FacturaE v3.1",
    digest_algorithm: DigestAlgorithm::Sha1,
    digest: "Ohixl6upD6av8N7pEvDABhEL6hM=",
    document_description: "Factura Electrónica",
};

/// TicketBAI's signature policy of Araba/Álava.
pub const TICKETBAI_ARABA: Policy = Policy {
    identifier: "https://ticketbai.araba.eus/tbai/sinadura/",
    description: "",
    digest_algorithm: DigestAlgorithm::Sha256,
    digest: "4Vk3uExj7tGn9DyUCPDsV9HRmK6KZfYdRiW3StOjcQA=",
    document_description: "",
};

/// TicketBAI's signature policy of Bizkaia.
pub const TICKETBAI_BIZKAIA: Policy = Policy {
    identifier: "https://www.batuz.eus/fitxategiak/batuz/ticketbai/sinadura_elektronikoaren_zehaztapenak_especificaciones_de_la_firma_electronica_v1_0.pdf",
    description: "",
    digest_algorithm: DigestAlgorithm::Sha256,
    digest: "Quzn98x3PMbSHwbUzaj5f5KOpiH0u8bvmwbbbNkO9Es=",
    document_description: "",
};

/// TicketBAI's signature policy of Gipuzkoa.
pub const TICKETBAI_GIPUZKOA: Policy = Policy {
    identifier: "https://www.gipuzkoa.eus/ticketbai/sinadura",
    description: "",
    digest_algorithm: DigestAlgorithm::Sha256,
    digest: "vSe1CH7eAFVkGN0X2Y7Nl9XGUoBnziDA5BGUSsyt8mg=",
    document_description: "",
};
