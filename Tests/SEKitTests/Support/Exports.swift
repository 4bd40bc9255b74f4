// Every file of this test target sees the shared test support (fixtures, temporary folders,
// WAV writer, the binary runner) without importing it.
@_exported import SEKitTestSupport
