// Keeps the declared test target non-empty (SwiftPM warns about empty targets) until
// this layer's tests land; delete this file then.
