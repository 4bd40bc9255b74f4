// `import SEKit` brings the signal layer and the catalogue too (Audio, DSP, native metrics,
// Statistics, Base; Catalog and its records): one import for the library's users, three targets for
// the compiler to keep apart.
@_exported import SEKitSignal
@_exported import SEKitCatalog
