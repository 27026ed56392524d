//! The web console (`/console/`): its protections over plain HTTP, and its pages in a real
//! headless Chromium driven over WebDriver.

mod browser;
mod driver;
mod security;
