import CMediaEngineCGStreamer
import Testing

@testable import MediaEngineCore

/// How the pipeline's errors become codes, where GStreamer gives different bad inputs the same error.
@Suite("Pipeline error translation")
struct PipelineErrorTranslatorTests {
    private func flowError(fromDemuxerWithoutStreams: Bool) -> PipelineFailure {
        var failure = PipelineFailure(
            domain: .stream, code: Int32(GST_STREAM_ERROR_FAILED.rawValue), message: "Internal data stream error.",
            debug: "streaming stopped, reason error (-5)", elementName: "qtdemux0", factoryName: "qtdemux")
        failure.fromDemuxerWithoutStreams = fromDemuxerWithoutStreams
        return failure
    }

    @Test("a demuxer's flow error before it found a stream is a corrupt container, as its stalled task is")
    func flowErrorWithoutStreams() {
        let error = PipelineErrorTranslator().translate(flowError(fromDemuxerWithoutStreams: true))
        #expect(error.code == .corruptContainer)
        #expect(error.message.hasPrefix("the container holds no stream that can be played"), "\(error.message)")
        #expect(error.element == "qtdemux0")
    }

    @Test("the same flow error once streams were found stays a stream failure")
    func flowErrorWithStreams() {
        #expect(PipelineErrorTranslator().translate(flowError(fromDemuxerWithoutStreams: false)).code == .streamFailure)
    }

    @Test("a demuxer's own demux error is a corrupt container, streams or not")
    func demuxError() {
        let failure = PipelineFailure(
            domain: .stream, code: Int32(GST_STREAM_ERROR_DEMUX.rawValue), message: "This file is corrupt",
            elementName: "qtdemux0", factoryName: "qtdemux")
        #expect(PipelineErrorTranslator().translate(failure).code == .corruptContainer)
    }
}
