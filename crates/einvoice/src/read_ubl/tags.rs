//! The UBL elements this reader knows, by namespace and local name. UBL keeps its aggregates
//! (`cac:`) and its basic values (`cbc:`) in two namespaces, so the namespace alone says whether
//! an element holds elements or text.

const INVOICE: &str = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2";
const CREDIT_NOTE: &str = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2";
const AGGREGATE: &str = "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2";
const BASIC: &str = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2";

/// The namespace an element resolved to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ns {
    Invoice,
    CreditNote,
    Aggregate,
    Basic,
    /// Any other namespace.
    Other,
}

impl Ns {
    /// The namespace of a URI.
    pub(super) fn of(uri: &str) -> Ns {
        match uri {
            INVOICE => Ns::Invoice,
            CREDIT_NOTE => Ns::CreditNote,
            AGGREGATE => Ns::Aggregate,
            BASIC => Ns::Basic,
            _ => Ns::Other,
        }
    }
}

/// An enum of element local names, with the lookup from a name.
macro_rules! names {
    ($(#[$doc:meta])* $enum:ident { $($name:ident),* $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        #[allow(clippy::upper_case_acronyms)] // the names UBL spells
        pub(super) enum $enum { $($name),* }

        impl $enum {
            /// The element of this local name; `None` for a name this reader does not know.
            pub(super) fn of(local: &str) -> Option<Self> {
                match local {
                    $(stringify!($name) => Some(Self::$name),)*
                    _ => None,
                }
            }

            /// Its bit in a set of seen elements.
            pub(super) fn bit(self) -> u128 {
                1u128 << (self as u32)
            }
        }
    };
}

names!(
    /// `cac:` elements: aggregates, holding elements only.
    Agg {
        AccountingCustomerParty,
        AccountingSupplierParty,
        AdditionalDocumentReference,
        AdditionalItemProperty,
        Address,
        AddressLine,
        AllowanceCharge,
        Attachment,
        BillingReference,
        BuyersItemIdentification,
        CardAccount,
        ClassifiedTaxCategory,
        CommodityClassification,
        Contact,
        ContractDocumentReference,
        Country,
        CreditNoteLine,
        Delivery,
        DeliveryLocation,
        DeliveryParty,
        DespatchDocumentReference,
        DocumentReference,
        ExternalReference,
        FinancialInstitutionBranch,
        InvoiceDocumentReference,
        InvoiceLine,
        InvoicePeriod,
        Item,
        LegalMonetaryTotal,
        OrderLineReference,
        OrderReference,
        OriginCountry,
        OriginatorDocumentReference,
        Party,
        PartyIdentification,
        PartyLegalEntity,
        PartyName,
        PartyTaxScheme,
        PayeeFinancialAccount,
        PayeeParty,
        PayerFinancialAccount,
        PaymentMandate,
        PaymentMeans,
        PaymentTerms,
        PostalAddress,
        PrepaidPayment,
        Price,
        ProjectReference,
        ReceiptDocumentReference,
        SellersItemIdentification,
        StandardItemIdentification,
        TaxCategory,
        TaxRepresentativeParty,
        TaxScheme,
        TaxSubtotal,
        TaxTotal,
    }
);

names!(
    /// `cbc:` elements: basic values, holding text only.
    Leaf {
        AccountingCost,
        ActualDeliveryDate,
        AdditionalStreetName,
        AllowanceChargeReason,
        AllowanceChargeReasonCode,
        AllowanceTotalAmount,
        Amount,
        BaseAmount,
        BaseQuantity,
        BuyerReference,
        ChargeIndicator,
        ChargeTotalAmount,
        CityName,
        CompanyID,
        CompanyLegalForm,
        CopyIndicator,
        CountrySubentity,
        CreditNoteTypeCode,
        CreditedQuantity,
        CustomizationID,
        Description,
        DescriptionCode,
        DocumentCurrencyCode,
        DocumentDescription,
        DocumentTypeCode,
        DueDate,
        ElectronicMail,
        EmbeddedDocumentBinaryObject,
        EndDate,
        EndpointID,
        HolderName,
        ID,
        IdentificationCode,
        InstructionID,
        InstructionNote,
        InvoiceTypeCode,
        InvoicedQuantity,
        IssueDate,
        IssueTime,
        ItemClassificationCode,
        Line,
        LineCountNumeric,
        LineExtensionAmount,
        LineID,
        MultiplierFactorNumeric,
        Name,
        NetworkID,
        Note,
        PaidAmount,
        PayableAmount,
        PayableRoundingAmount,
        PaymentDueDate,
        PaymentID,
        PaymentMeansCode,
        Percent,
        PostalZone,
        PrepaidAmount,
        PriceAmount,
        PrimaryAccountNumberID,
        ProfileID,
        RegistrationName,
        SalesOrderID,
        StartDate,
        StreetName,
        TaxAmount,
        TaxCurrencyCode,
        TaxExclusiveAmount,
        TaxExemptionReason,
        TaxExemptionReasonCode,
        TaxInclusiveAmount,
        TaxPointDate,
        TaxableAmount,
        Telephone,
        UBLVersionID,
        URI,
        UUID,
        Value,
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    /// Every tag has a bit of its own in a `u128`.
    #[test]
    fn every_tag_fits_a_set() {
        assert!((Agg::TaxTotal as u32) < 128);
        assert!((Leaf::Value as u32) < 128);
        assert_eq!(Agg::of("Party"), Some(Agg::Party));
        assert_eq!(Leaf::of("ID"), Some(Leaf::ID));
        assert_eq!(Leaf::of("Party"), None);
    }
}
