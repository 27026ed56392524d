//! The writer's choices on small invoices built by folio with the `pl-favat-v3` add-on.
