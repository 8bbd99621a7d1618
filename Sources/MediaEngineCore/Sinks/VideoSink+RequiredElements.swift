extension VideoSink {
    /// Checks that GStreamer has every element the sink needs (``requiredElements``), by looking
    /// each factory up in GStreamer's registry (`gst_element_factory_find`): no element is made and
    /// ``makeOutput()`` is not called. ``VideoSinkRegistry/makeSink(named:options:)`` runs it on
    /// every sink it makes; a sink made in code can run it to fail early.
    /// - Throws: ``MediaError/Code/missingPlugin`` for the first element that is not installed,
    ///   naming it (``MediaError/element``) and the Debian package that has it, when known.
    public func checkRequiredElements() throws(MediaError) {
        for factory in requiredElements where !ElementFactory.exists(factory) {
            throw MissingPluginAdvisor.errorForMissingFactory(factory)
        }
    }
}
