// The MediaEngine product: the core (MediaEngineCore), re-exported, with everything that needs a
// C library beyond GStreamer linked in beside it:
// - CMediaEngineX11Window: the window sink's own windows (fullscreen, clicks) and the X error handling that
//   keeps Xlib from ending the app (libX11);
// - CMediaEngineTextRender: text overlays, subtitles, closed captions and the on-screen controls' labels
//   (Pango and cairo);
// - CMediaEngineLibavDecoder: the engine's decoders, meh264dec and meh265dec, which hand libavcodec's
//   pictures over without a copy (libavcodec).
// Each installs itself into the core from a C constructor when it is linked, so `import
// MediaEngine` is all an app writes. A headless app that wants frames can depend on
// MediaEngineCore alone instead, and link none of those libraries.
@_exported import MediaEngineCore
