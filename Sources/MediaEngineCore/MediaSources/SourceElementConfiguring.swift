/// A source that configures the GStreamer element reading it beyond what ``SourceSettings``
/// can say: properties whose values are GObjects (an HTTP source's `tls-database`), made by a C
/// library only that source's target links. `package`: the element is a raw pointer, which
/// the public API never shows; sources in this package adopt it.
package protocol SourceElementConfiguring: MediaSource {
    /// Configures the source element (a `GstElement *`), after its ``MediaSource/settings``
    /// were applied, on the thread that made it (playbin's `source-setup`). Must not block.
    /// - Parameter element: The element; borrowed for the call.
    /// - Throws: ``MediaError``, which fails the preparation.
    func configure(sourceElement element: UnsafeMutableRawPointer) throws(MediaError)
}
