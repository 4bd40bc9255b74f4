// `import SEKit` brings the signal layer too (Audio, DSP, native metrics, Statistics, Base):
// one import for the library's users, two targets for the compiler to keep apart.
@_exported import SEKitSignal
