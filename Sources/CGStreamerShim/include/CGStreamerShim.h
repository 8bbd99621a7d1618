// CGStreamerShim: the small part of GStreamer's C API that Swift cannot import
// (macros, varargs, GType constants) and the C callbacks that must run on
// GStreamer's streaming threads without touching Swift. Every name is
// prefixed `me_` so it never collides with GStreamer's own symbols.
#pragma once
#include <stdint.h>
#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>
#include <gst/base/gstbasesink.h>

// MARK: GType constants (G_TYPE_* are macros with casts, which Swift cannot import).
GType me_type_boolean(void);
GType me_type_int(void);
GType me_type_uint(void);
GType me_type_long(void);
GType me_type_ulong(void);
GType me_type_int64(void);
GType me_type_uint64(void);
GType me_type_float(void);
GType me_type_double(void);
GType me_type_string(void);
GType me_type_enum(void);
GType me_type_flags(void);
GType me_type_object(void);
GType me_type_char(void);
GType me_type_uchar(void);

// MARK: GObject and GValue macros.
/// G_VALUE_TYPE
GType me_value_type(const GValue *value);
/// G_OBJECT_TYPE
GType me_object_type(gpointer object);
/// G_OBJECT_GET_CLASS + g_object_class_find_property
GParamSpec *me_object_find_property(gpointer object, const gchar *name);
/// g_object_set (object, name, value, NULL) for an object-valued property (g_object_set is varargs).
void me_object_set_object(gpointer object, const gchar *name, gpointer value);
/// GST_IS_BIN
gboolean me_is_bin(gpointer object);
/// GST_MESSAGE_SRC: borrowed, may be NULL.
GstObject *me_message_source(GstMessage *message);
/// GST_MESSAGE_TYPE
GstMessageType me_message_type(GstMessage *message);
/// GST_OBJECT_NAME of an element's factory, or NULL.
const gchar *me_element_factory_name(GstElement *element);
/// GST_STATE_TARGET, under the element's object lock: the state the application last asked for
/// (PLAYING while a bin's state is lost to a child's preroll, as its current and pending state say
/// PAUSED).
GstState me_element_target_state(GstElement *element);

// MARK: Messages posted by the engine's own probes.
// Posts an application message named `name` on `element`'s bus.
// The engine's own bus messages: application messages by structure name, each name defined
// once here. The C elements post them; Swift maps each to a typed BusMessage case.
#define ME_MESSAGE_STREAM_TYPE "me-stream-type"
#define ME_MESSAGE_VIDEO_DECODER "me-video-decoder"
#define ME_MESSAGE_FIRST_FRAME "me-first-frame"
#define ME_MESSAGE_FIRST_FRAME_HELD "me-first-frame-held"
#define ME_MESSAGE_OUTPUT_SWAPPED "me-output-swapped"
#define ME_MESSAGE_STATE_CHANGE_FAILED "me-state-change-failed"
#define ME_MESSAGE_SOURCE_SETTINGS_FAILED "me-source-settings-failed"
#define ME_MESSAGE_BUS_STOP "me-bus-stop"
/// A network source delivered its whole stream (EOS passed its source pad): posted by transfer.c.
#define ME_MESSAGE_DOWNLOAD_COMPLETE "me-download-complete"
/// The manifest an adaptive demuxer read, whole (field "text", UTF-8), posted on the demuxer at
/// the manifest's end: see me_capture_manifest.
#define ME_MESSAGE_MANIFEST "me-manifest"
/// The largest manifest me_capture_manifest keeps.
#define ME_MANIFEST_MAX_BYTES (4 * 1024 * 1024)
/// Followed by the epoch's number: "me-epoch-3" marks where a reloaded movie's messages begin.
#define ME_MESSAGE_EPOCH_PREFIX "me-epoch-"
/// Followed by a seek's sequence number: "me-seek-41" is posted just before that flushing seek is
/// sent, so an ASYNC_DONE before it on the bus (a pause's, say) is known not to be the seek's.
#define ME_MESSAGE_SEEK_PREFIX "me-seek-"
/// ID3 tags found in the stream with their time (fields "tags" (GstTagList), "stream-time" (guint64),
/// "seqnum" (the segment's; 0 unknown), "id3-version"): see me_watch_timed_metadata.
#define ME_MESSAGE_TIMED_METADATA "me-timed-metadata"

gboolean me_post_application_message(GstElement *element, const gchar *name);

/// Has `playbin` (already past READY, so that its uridecodebin exists) build the list of elements
/// it chooses from when autoplugging, which it otherwise builds on the streaming thread at the
/// first pad to decode. Called while the source is still connecting or reading its first bytes,
/// it overlaps that work with the wait. Returns FALSE when playbin has no uridecodebin yet.
gboolean me_warm_up_autoplugging(GstElement *playbin);

/// Locks the state of the uridecodebins a playbin at READY keeps from the movie before, so that
/// its next move up to PAUSED starts only the source of the new URI (reloadsources.c).
void me_lock_previous_sources(GstElement *playbin);

/// Watches every typefind element that `bin` (or any bin below it) creates and
/// posts an application message ME_MESSAGE_STREAM_TYPE with field "caps" (string)
/// and "probability" (uint) when it finds the stream's type. Lets the engine
/// refuse images and text before decodebin tries to play them.
void me_watch_stream_types(GstElement *bin);

/// Adds a buffer probe on `pad` that posts an application message
/// ME_MESSAGE_FIRST_FRAME (fields width, height, par-n, par-d, stream-time, seqnum) on
/// `element` for the first buffer after start and after each flush. `seqnum` is
/// that of the flush or segment before the buffer, which a seek's events carry. Runs in C on the
/// streaming thread: no Swift code is entered per frame.
/// With `hold`, the first buffer is not let through: ME_MESSAGE_FIRST_FRAME_HELD is posted instead
/// and buffers are dropped until the next flush (the engine's seek to the initial playback
/// time), so nothing from before that time is ever shown.
typedef struct MeFirstFrameWatch MeFirstFrameWatch;
MeFirstFrameWatch *me_watch_first_frame(GstPad *pad, GstElement *element, gboolean hold);
/// Holds the next first frame (as `hold` above); for a pipeline reused for another movie.
/// The watch lives as long as `pad`.
void me_first_frame_watch_hold(MeFirstFrameWatch *watch);
/// The stream time where the last frame the watch let through ends (its PTS plus its duration),
/// or GST_CLOCK_TIME_NONE before any since the last flush. The output's chain is synchronous from
/// the watched pad to the sink, so that frame is the one shown, or the next one to be.
guint64 me_first_frame_watch_last_end(MeFirstFrameWatch *watch);

/// Keeps running time continuous across gapless loops: a non-flushing segment seek makes the
/// demuxer start the next segment's running time at its last sample's timestamp rather than at
/// the end of the segment, so each pass would start one frame (or audio buffer) early. This
/// probe rewrites the base of each continuation segment passing `pad` to where the previous
/// segment ends. Install it on every sink's input.
gulong me_keep_loops_continuous(GstPad *pad);

/// Looks for a demuxer inside `bin` that has given up: it has no source pads and the task
/// that drives it is no longer running. decodebin drops the error such a demuxer posts
/// while it is still being set up (its error filter), which would leave the pipeline
/// waiting for a preroll that never comes. Returns the demuxer's name (g_free it) or NULL.
gchar *me_find_stalled_demuxer(GstElement *bin);
/// Whether `object` is a demuxer (its factory's class names one) with no source pad yet: an error
/// it posts is about a container it could not read a single stream from.
gboolean me_is_demuxer_without_streams(GstObject *object);

// MARK: Adaptive streaming (HLS, DASH)
typedef void (*me_element_callback)(GstElement *self, GstElement *element, gpointer user_data);
/// Calls `callback` (with `element` twice) when the first buffer reaches `element`'s "sink" pad,
/// on the streaming thread that pushes it, once; `destroy` frees `user_data` afterwards (or with
/// the pad). For settings an element's parent would overwrite between creating the element and
/// starting it (decodebin sets every demuxer's `connection-speed` after adding it). False when
/// the element has no "sink" pad.
gboolean me_on_first_input(GstElement *element, me_element_callback callback, gpointer user_data,
                           GDestroyNotify destroy);
/// Whether `element` is an adaptive-streaming demuxer (its class has Demux and Adaptive:
/// hlsdemux, dashdemux, mssdemux).
gboolean me_is_adaptive_demuxer(GstElement *element);
/// Whether `element` reads a URI (a source element: souphttpsrc, filesrc, ...).
gboolean me_is_uri_source(GstElement *element);
/// Makes an adaptive demuxer assume `start_kbps` of bandwidth (its `connection-speed`) until its
/// first buffer leaves it, then go back to the speed it had (0: measure the downloads). Picks the
/// variant a stream starts with; GStreamer 1.22's hlsdemux has no start-bitrate of its own
/// (hlsdemux2's cannot run in playbin). Does nothing to an element without `connection-speed`.
void me_adaptive_start_at(GstElement *demuxer, guint start_kbps);

/// Lets an adaptive demuxer of one stream push its first fragment and blocks the fragments after
/// it (a switched variant's pads included) until me_adaptive_open_fragment_gates, or a flush,
/// opens the gate: the movie prerolls without the demuxer reading ahead, switching variant and
/// decodebin building a second chain meanwhile. Install before the demuxer adds its pads; each
/// source element the demuxer makes for its fragments goes to
/// me_adaptive_gate_watch_fragment_source. See fragmentgate.c.
void me_adaptive_gate_after_first_fragment(GstElement *demuxer);
/// Watches the end of the fragments `source` reads for its demuxer's gate; does nothing when
/// `source` is not in a gated demuxer's fragment bin.
void me_adaptive_gate_watch_fragment_source(GstElement *source);
/// Opens the gate of every adaptive demuxer in `bin` (recursively). Safe to call at any time.
void me_adaptive_open_fragment_gates(GstElement *bin);

/// Copies the manifest `demuxer` reads (up to ME_MANIFEST_MAX_BYTES) and posts it as
/// ME_MESSAGE_MANIFEST when it has all of it. Install before the manifest arrives.
/// See manifestcapture.c.
void me_capture_manifest(GstElement *demuxer);

// MARK: Signals with typed callbacks (g_signal_connect is a macro over GCallback).
/// Connects a handler for a signal of signature void (GstElement*, GstElement*, gpointer),
/// such as playbin's "source-setup".
gulong me_signal_connect_element(gpointer instance, const gchar *signal, me_element_callback callback,
                                 gpointer user_data, GClosureNotify destroy);


// MARK: Instant rate changes (instantrate.c).
/// Called with an instant rate change's multiplier and seqnum, on whatever thread delivered it.
/// Moves a volume element's gain to `target` in a linear ramp from stream time `now` over
/// `duration`, without a click; me_volume_settle ends the ramp at `target` (volume.c).
void me_volume_ramp(GstElement *volume, gdouble target, GstClockTime now, GstClockTime duration);
void me_volume_settle(GstElement *volume, gdouble target);
/// Lets a volume element start ramps at its next buffer: me_volume_request_ramp asks for one (the
/// streaming thread starts it where that buffer starts, and ends it at the first buffer past it),
/// me_volume_set_now sets the gain at once (nothing playing), withdrawing any ramp.
void me_volume_watch(GstElement *volume);
void me_volume_request_ramp(GstElement *volume, gdouble target, GstClockTime duration);
void me_volume_set_now(GstElement *volume, gdouble target);

/// The tags of playbin's audio (or, with `text`, subtitle) stream `index`, or NULL (tracks.c).
GstTagList *me_playbin_stream_tags(GstElement *playbin, gboolean text, gint index);
/// Keeps playsink's audio queue to 200 ms, so that a new audio track is heard that soon (tracks.c).
void me_shorten_audio_queue(GstElement *playbin);

/// playbin's about-to-finish: called on a streaming thread with the playbin (gapless.c).
typedef void (*me_about_to_finish_callback)(GstElement *playbin, gpointer user_data);
gulong me_connect_about_to_finish(GstElement *playbin, me_about_to_finish_callback callback, gpointer user_data,
                                  GClosureNotify destroy);
/// A STREAM_START message's group id (0 when it has none).
guint me_message_group_id(GstMessage *message);
/// The stream group of the element that posted `message` (a DURATION_CHANGED): the group id of
/// the stream start its pads carry, 0 when it has none (gapless.c).
guint me_message_source_group_id(GstMessage *message);
/// The duration (time) of stream group `group` in `pipeline`, asked of the elements that carry
/// that group's stream start outside playsink; FALSE when none answers (gapless.c).
gboolean me_stream_group_duration(GstElement *pipeline, guint group, gint64 *duration);

/// Lets playbin's gapless hand-over work for movies with several streams (gaplessgate.c): drops a
/// stream's EOS at playsink while another stream runs and a next movie may follow, where 1.22's
/// stream synchronizer would hold it and deadlock the switch. Lives as long as `playbin`; NULL
/// when the playbin has no playsink (no hand-over is then refused).
typedef struct MeGaplessGate MeGaplessGate;
MeGaplessGate *me_gapless_gate_install(GstElement *playbin);
/// Whether a next movie is queued (the gate may then drop an EOS).
void me_gapless_gate_set_next_queued(MeGaplessGate *gate, gboolean queued);
/// At about-to-finish: whether a hand-over may start (FALSE when an EOS already went through to
/// the stream synchronizer in this movie); if so, EOS keep being dropped until it is done.
gboolean me_gapless_gate_begin_hand_over(MeGaplessGate *gate);
/// At about-to-finish, when nothing is handed over after all: the dropped EOS are sent again.
void me_gapless_gate_cancel_hand_over(MeGaplessGate *gate);
/// A movie handed to playbin was withdrawn: the buffers of stream group number `from_group`
/// (counted from 1 since the install or the last restart) and of every later group are dropped at
/// playsink, at once if that group has started; 0 withdraws nothing.
void me_gapless_gate_withdraw(MeGaplessGate *gate, guint from_group);
/// The pipeline's streams were stopped for another movie: nothing is withdrawn, and groups are
/// counted again from the next one.
void me_gapless_gate_restart(MeGaplessGate *gate);

typedef void (*me_instant_rate_callback)(gpointer user_data, gdouble multiplier, guint32 seqnum);
/// Takes every GST_EVENT_INSTANT_RATE_CHANGE out on `pad` (a sink's, or a sink bin's, sink pad)
/// and hands it to `callback` instead, so the sink never posts INSTANT_RATE_REQUEST from a
/// streaming thread. `destroy` frees `user_data` with the probe.
gulong me_relay_instant_rate(GstPad *pad, me_instant_rate_callback callback, gpointer user_data,
                             GDestroyNotify destroy);
/// Whether every GstBaseSink inside `bin`, at any depth, has a TIME segment.
gboolean me_sinks_have_time_segments(GstElement *bin);
/// Posts INSTANT_RATE_REQUEST (`multiplier`, `seqnum`) from `sink`, as a sink does; the pipeline
/// handles it on the calling thread (gst_pipeline_handle_instant_rate).
gboolean me_post_instant_rate_request(GstElement *sink, gdouble multiplier, guint32 seqnum);

// MARK: Overlay pixels
/// A buffer holding `width`x`height` pixels in GStreamer's overlay format (BGRA in memory,
/// straight alpha), converted from `rgba` in one pass, with the video meta overlay rectangles need.
GstBuffer *me_overlay_buffer_new(const guint8 *rgba, guint width, guint height);

// MARK: Video frames (GstVideoFrame and GstVideoInfo fields are fixed-size arrays and macros).
guint8 *me_video_frame_plane_data(GstVideoFrame *frame, guint plane);
gint me_video_frame_plane_stride(GstVideoFrame *frame, guint plane);
gint me_video_frame_plane_height(GstVideoFrame *frame, guint plane);
gint me_video_frame_plane_width_bytes(GstVideoFrame *frame, guint plane);
guint me_video_frame_plane_count(GstVideoFrame *frame);

// MARK: Still images (image.c).
/// Decodes an image held in memory to one RGBA sample, or NULL with `error` set (g_free it).
GstSample *me_decode_image(
    const guint8 *data, gsize size, guint64 timeout_ns, guint max_side, guint64 max_pixels, gchar **error);

// sinkflowguard.c: wraps the sink pad's chain functions of every GstBaseSink in `output` (the
// element itself, or any depth of a bin) so that a GST_FLOW_FLUSHING returned while that pad is
// not flushing (srtsink's render racing its ::unlock on a pause) drops that buffer instead of
// stopping the stream for good. Call before the output receives data.
void me_guard_sink_flow(GstElement *output);

// framelimit.c: refuses raw video caps over max_side a side or max_pixels in all (ACCEPT_CAPS
// answered "no" on `pad`), posting one error on `poster` (debug detail "me-frame-too-large").
void me_limit_frame_size(GstPad *pad, GstElement *poster, guint max_side, guint64 max_pixels);

// MARK: Pointer clicks and keys.
typedef void (*me_pointer_callback)(gdouble x, gdouble y, gpointer data);
typedef void (*me_key_callback)(const gchar *key, gboolean shift, gpointer data);
typedef void (*me_motion_callback)(gpointer data);
/// Calls `callback` for each left-button release a window sink reports upstream through
/// `element`'s src pad, at the point in that element's output frames, `key_callback` for
/// each key press (the X keysym's name, "space", "Left", "q", and whether Shift was held), and
/// `motion_callback` for each pointer motion.
void me_watch_pointer(GstElement *element, me_pointer_callback callback, me_key_callback key_callback,
                      me_motion_callback motion_callback, gpointer data, GDestroyNotify destroy);

// MARK: Decoders.
/// The rank a decoder element registers with: its factory name and the media type it decodes.
typedef guint (*me_decoder_rank_callback)(const gchar *element, const gchar *media_type);
/// Registers decoder elements in `plugin`: at the rank `rank` gives them when `ranked` (a loadable
/// plugin), or at NONE with that rank kept as the engine's preference (decoderpreference.c).
typedef gboolean (*me_decoder_registrar)(GstPlugin *plugin, me_decoder_rank_callback rank, gboolean ranked);
/// Installs the engine's own decoders (the CLibavDecoder target's meh264dec and meh265dec, from
/// its constructor, when linked): registered with the engine's other elements. The core alone
/// (MediaEngineCore) has none, and GStreamer's own decoders (avdec_h264, ...) decode.
void me_decoders_install(me_decoder_registrar registrar);
/// Registers the installed decoders, if any, as `me_decoder_registrar` says (TRUE when none).
gboolean me_register_decoders(GstPlugin *plugin, me_decoder_rank_callback rank, gboolean ranked);
/// Keeps `rank` as the engine's preference for decoder `element` in its own pipelines.
void me_decoder_preference_record(const gchar *element, guint rank);
/// Makes the decodebins inside `pipeline` (at any depth, added later) try the engine's decoders
/// at their preferred rank, though the registry ranks them NONE.
void me_prefer_engine_decoders(GstElement *pipeline);
/// Gives the engine's decoders their preferred rank in the registry: every decodebin in the
/// process then prefers them (an app's opt-in); FALSE takes it back (rank NONE).
void me_prefer_engine_decoders_everywhere(gboolean everywhere);
/// The factory name of the first video decoder inside `bin` (g_free it), or NULL.
gchar *me_video_decoder_name(GstElement *bin);

// MARK: Allocation.
/// Makes `sink` (an appsink) tell upstream it reads GstVideoMeta (appsink has no allocation
/// answer of its own in 1.22), so the engine's decoder can hand over the pictures it decoded,
/// with their own strides and padding, instead of copying each one.
void me_accept_video_meta(GstElement *sink);

// MARK: Buffers.
GstClockTime me_buffer_pts(GstBuffer *buffer);
GstClockTime me_buffer_duration(GstBuffer *buffer);
/// Whether the buffer is a keyframe (GST_BUFFER_FLAG_DELTA_UNIT unset).
gboolean me_buffer_is_keyframe(GstBuffer *buffer);
// Flags a video decoder's output pictures that were not keyframes going in as DELTA_UNIT
// (decoders leave the flag off every picture); keyframes.c.
void me_mark_keyframes(GstElement *decoder);

// MARK: Output swap.
/// Replaces the chain of elements after `upstream` inside `bin` (see swap.c), setting the
/// upstream scaler's output size on the way; posts ME_MESSAGE_OUTPUT_SWAPPED on `bin` when done.
/// Adds the new chain to `bin` and brings it to the bin's state on the calling thread (the
/// player's); only the relink itself runs between two buffers, on the streaming thread.
/// `unblock_old`: the pipeline is paused and the old output holds its streaming thread.
void me_swap_chain(GstElement *bin, GstElement *upstream, GstElement **old_chain, guint old_count,
                   GstElement **new_chain, guint new_count, guint width, guint height, gboolean unblock_old);
/// Shuts down an element of an output a swap replaced and takes it out of `bin`, once that swap's
/// probe has unlinked it (its state is locked then); FALSE, doing nothing, before that. On the
/// player's thread, when it handles ME_MESSAGE_OUTPUT_SWAPPED.
gboolean me_swap_remove_replaced(GstElement *bin, GstElement *element);

// MARK: Seeks sent up from an output (upstreamseek.c).
/// Pushes `event` (a seek; taken) upstream from the "sink" pad of `video_output`, or of
/// `audio_sink` when the video's is not linked (either may be NULL), holding no element's state
/// lock; FALSE when neither pad is linked or nothing upstream took it.
gboolean me_send_seek_upstream(GstElement *video_output, GstElement *audio_sink, GstEvent *event);

// MARK: The video output's bin (outputbin.c).
/// A new, floating GstBin that sends a seek upstream from its "sink" pad once, instead of into
/// each sink inside it (see outputbin.c).
GstElement *me_video_output_bin_new(const gchar *name);
/// Notes the stream time of each frame that enters the bin's "sink" pad (call once the pad is
/// there); `me_video_output_bin_last_stream_time` reads the last, -1 when none came since the
/// last flush. Any thread.
void me_video_output_bin_watch_input(GstElement *bin);
gint64 me_video_output_bin_last_stream_time(GstElement *bin);

// MARK: Orientation stage (orientation.c).
typedef struct MeOrientation MeOrientation;
/// Manages `flip` (in the same bin, unlinked) between `upstream` and `downstream` (linked to
/// each other): it is linked in only while the picture is turned. Starts automatic.
MeOrientation *me_orientation_new(GstElement *upstream, GstElement *flip, GstElement *downstream);
/// Follows the movie's image-orientation tag.
void me_orientation_set_automatic(MeOrientation *orientation);
/// Turns by a fixed GstVideoOrientationMethod, ignoring the tag.
void me_orientation_set_fixed(MeOrientation *orientation, gint method);
void me_orientation_unref(MeOrientation *orientation);

// MARK: The window system (windowsystem.c).
// The engine's own X11 code (its windows, and the X error handling that keeps Xlib from ending
// the app) lives in the CX11Window target, which links libX11 and installs itself here from a
// constructor when it is linked (the MediaEngine product). The core alone (MediaEngineCore) has
// no window system: me_window_open returns NULL, me_window_check says
// ME_WINDOW_NO_WINDOW_SYSTEM, and the watches do nothing.
typedef struct MeWindow MeWindow;
typedef void (*me_window_click_callback)(int x, int y, int width, int height, gpointer data);
/// A key pressed in the window: its unshifted keysym's name (as ximagesink names them: "space",
/// "Right", "q", "Shift_L") and whether Shift was held.
typedef void (*me_window_key_callback)(const char *key, gboolean shift, gpointer data);
typedef enum {
    ME_WINDOW_USABLE,
    ME_WINDOW_NO_DISPLAY,
    ME_WINDOW_MISSING,
    ME_WINDOW_REFUSED,
    ME_WINDOW_NO_WINDOW_SYSTEM
} MeWindowCheck;
/// Called with X's error, for people, when a request on a watched window fails; inside Xlib's
/// error handler, on whichever thread made the request: it must call no Xlib, take no lock that
/// thread may hold, and hand the work to another thread.
typedef void (*me_x_window_error_callback)(const char *detail, gpointer data);
/// A window system's functions, each documented at its dispatcher below.
typedef struct {
    MeWindow *(*open)(const char *display_name, int width, int height, const char *title);
    unsigned long (*xid)(MeWindow *window);
    void (*move_resize)(MeWindow *window, int x, int y, int width, int height);
    void (*geometry)(MeWindow *window, int *x, int *y, int *width, int *height);
    void (*screen_size)(MeWindow *window, int *width, int *height);
    gboolean (*has_window_manager)(MeWindow *window);
    void (*set_fullscreen_hint)(MeWindow *window, gboolean fullscreen);
    void (*close)(MeWindow *window);
    gboolean (*watch_input)(MeWindow *window, const char *display_name, me_window_click_callback clicks,
                            me_window_key_callback keys, gpointer data, GDestroyNotify destroy);
    void (*errors_install)(void);
    MeWindowCheck (*check)(const char *display_name, unsigned long xid, int *width, int *height, char **detail);
    guint64 (*watch_window)(unsigned long xid, me_x_window_error_callback callback, gpointer data,
                            GDestroyNotify destroy);
    void (*unwatch_window)(guint64 token);
} MeWindowSystem;
/// Installs the window system (once, before main: from the CX11Window target's constructor).
void me_window_system_install(const MeWindowSystem *system);
/// Whether a window system is linked in.
gboolean me_window_system_available(void);

/// Opens `display_name` (NULL: $DISPLAY) and maps a black window; NULL when there is no display.
MeWindow *me_window_open(const char *display_name, int width, int height, const char *title);
unsigned long me_window_xid(MeWindow *window);
void me_window_move_resize(MeWindow *window, int x, int y, int width, int height);
void me_window_geometry(MeWindow *window, int *x, int *y, int *width, int *height);
void me_window_screen_size(MeWindow *window, int *width, int *height);
gboolean me_window_has_window_manager(MeWindow *window);
void me_window_set_fullscreen_hint(MeWindow *window, gboolean fullscreen);
void me_window_close(MeWindow *window);
/// Calls `clicks` on a thread of its own for each left-button click on the window (at the
/// release), with the point and the window's size, and `keys` for each key pressed in it, until
/// the window is closed. Over a display connection of its own: a video sink's connection that
/// drains its events may drop some (ximagesink 1.22 throws away a key press that arrives while it
/// redraws the window after a resize).
gboolean me_window_watch_input(MeWindow *window, const char *display_name, me_window_click_callback clicks,
                               me_window_key_callback keys, gpointer data, GDestroyNotify destroy);
/// Installs, once, the process's X error handlers that keep X errors of the engine's making from
/// Xlib's default handler (which exits); errors of other connections go to the previous handler.
void me_x_errors_install(void);
/// Whether window `xid` on `display_name` exists and can be drawn in (XGetWindowAttributes on a
/// connection of the engine's), and its size. `detail` gets X's error, if any, for people (g_free it).
MeWindowCheck me_window_check(const char *display_name, unsigned long xid, int *width, int *height, char **detail);
/// Reports the first X error that names window `xid`, on any connection (ximagesink's own
/// included), to `callback`, and keeps that error and later ones from the previous handler.
/// Returns a token for me_x_unwatch_window (0 and nothing watched without a window system);
/// `destroy` frees `data` then.
guint64 me_x_watch_window(unsigned long xid, me_x_window_error_callback callback, gpointer data,
                          GDestroyNotify destroy);
/// Ends a watch: errors naming the window go to the previous handler again.
void me_x_unwatch_window(guint64 token);

// MARK: GstVideoOverlay (videooverlay.c).
/// gst_video_overlay_set_window_handle and set_render_rectangle on the first element in `bin`
/// (or `bin` itself) that implements GstVideoOverlay. Returns whether one did.
gboolean me_video_overlay_attach(GstElement *bin, guintptr handle, int x, int y, int width, int height);
/// Whether `element` (or an element in it, if a bin) implements GstVideoOverlay: a window sink.
gboolean me_has_video_overlay(GstElement *element);
/// gst_video_overlay_expose on that element.
void me_video_overlay_expose(GstElement *bin);

// MARK: The scaler's compositing (scaler.c).
/// Where the scaler put the movie's picture in its output, in pixels, for the frame at hand.
typedef struct {
    gint canvas_width, canvas_height;   // the output frame
    gint input_width, input_height;     // the picture as it arrives (turned by the orientation)
    gint source_x, source_y, source_width, source_height;     // the part of it that is shown
    gint picture_x, picture_y, picture_width, picture_height; // where that part is in the output
    GstClockTime stream_time;           // the frame's position in the movie, or NONE
} MeScalerGeometry;
/// Returns the overlays for one frame (full reference, or NULL for none). Runs on the
/// streaming thread.
typedef GstVideoOverlayComposition *(*me_compose_callback)(const MeScalerGeometry *geometry, gpointer user_data);
/// Sets the scaler's compose callback, once, before it starts; `destroy` runs when it is freed.
void me_scaler_set_compositor(GstElement *scaler, me_compose_callback compose, gpointer user_data,
                              GDestroyNotify destroy);
/// One overlay rectangle for me_blend_420: pixels (`width`x`height`, rows of `stride` bytes,
/// straight alpha; AYUV, or with `argb` GStreamer's native-endian ARGB overlay format) to place
/// at (`x`, `y`) with the opacity `global_alpha`. The planes made from them are kept with
/// `owner` (the rectangle: a rectangle is blended by one scaler at a time, where its pixels may
/// be shared by several players' rectangles).
typedef struct {
    GstBuffer *pixels;
    GstMiniObject *owner;
    gboolean argb;
    gint stride, width, height, x, y;
    gfloat global_alpha;
} MeBlendSource;
/// Blends `count` rectangles, in order, onto an 8-bit 4:2:0 frame (blend.c). With a `source`
/// frame (same format and size), `destination` gets a copy of it with the rectangles blended;
/// without, `destination` is blended in place. False, doing nothing, for other formats.
gboolean me_blend_420(GstVideoFrame *destination, const GstVideoFrame *source, const MeBlendSource *sources,
                      guint count);
// MARK: Pictures a decoder let go of (releasedpicture.c).
/// Whether the decoder that made a picture holds it no more (libav: no reference of its own left);
/// `owner` is what the decoder set with the check. Called on the streaming thread of the frame.
typedef gboolean (*me_picture_released_callback)(gpointer owner);
/// Marks a decoder's read-only `memory` (a plane of a picture the decoder may still read) with the
/// question `released(owner)`; `owner` must live as long as the memory does.
void me_picture_memory_set_release_check(GstMemory *memory, me_picture_released_callback released, gpointer owner);
/// Makes `buffer`'s read-only memories writable if only this buffer holds them and their decoder
/// has let their picture go (each memory's check); true when the buffer can then be written in
/// place, false (nothing changed) when it must be copied first.
gboolean me_picture_buffer_claim(GstBuffer *buffer);

/// The geometry of the latest frame; false before the first.
gboolean me_scaler_geometry(GstElement *scaler, MeScalerGeometry *geometry);

// MARK: Private elements.
/// Registers the engine's own elements (mescaler, see scaler.c). Call once after gst_init.
gboolean me_register_elements(void);
/// Registers the engine's elements in `plugin` (the loadable plugin's init, or the static one's).
gboolean me_register_elements_in(GstPlugin *plugin);
/// The plugin's description, for both ways of registering it.
#define ME_PLUGIN_DESCRIPTION "swift-media-engine's elements: decoders that hand libavcodec's pictures over without a copy, the scaler, frame selection and the backdrop"


// MARK: Text rendering (textrender.c).
// Text to pixels for text overlays, subtitles, captions and the on-screen controls. The engine's
// renderer (Pango and cairo) lives in the CTextRender target, which installs itself here from a
// constructor when it is linked (the MediaEngine product); the core alone has none.

/// How to draw a piece of text. Colours are 0xRRGGBBAA.
typedef struct {
    const char *text;        // UTF-8
    int markup;              // text is Pango markup
    const char *font;        // Pango font description ("Sans Bold 24")
    uint32_t color;
    uint32_t outline_color;
    double outline_width;    // pixels; 0: none
    uint32_t shadow_color;
    double shadow_dx, shadow_dy; // pixels; both 0: no shadow
    uint32_t background;     // behind the text box; alpha 0: none
    int alignment;           // 0 left, 1 centre, 2 right (lines relative to each other)
    int wrap_width;          // pixels; 0: no wrapping
    int padding;             // pixels around the text
} MeTextStyle;
/// A text renderer: as me_text_render, its results allocated with malloc.
typedef uint8_t *(*me_text_renderer)(const MeTextStyle *style, int *width, int *height, char **error);
/// Installs the text renderer (once, before main: from the CTextRender target's constructor).
void me_text_renderer_install(me_text_renderer renderer);
/// Draws `style->text`. On success returns width*height*4 bytes of RGBA (free with
/// me_text_free) and sets the size; on failure returns NULL and sets `error` (free with
/// me_text_free) to what went wrong, "no text renderer" included.
uint8_t *me_text_render(const MeTextStyle *style, int *width, int *height, char **error);
void me_text_free(void *pointer);

// MARK: libyuv.
struct YuvConstants;
/// libyuv's YUV-to-RGB tables by matrix (0: BT.601, 1: BT.601 full range, 2: BT.709,
/// 3: BT.709 full range, 4: BT.2020), with U and V swapped (`swapped`) for RGBA output.
/// They are 32-byte aligned for AVX2 loads, so Swift must use these pointers, never copies.
const struct YuvConstants *me_yuv_constants(int matrix, gboolean swapped);

// MARK: Threads.
/// Names the calling thread (pthread_setname_np needs _GNU_SOURCE, which Swift's Glibc module lacks).
void me_name_current_thread(const char *name);
/// Gives the memory malloc holds free, in every arena, back to the system (`malloc_trim(0)`).
void me_return_free_memory(void);

// MARK: Thumbnails (thumbnails.c).
/// A thumbnail pipeline: `uridecodebin` (video only) into a sink that keeps nothing, with the
/// probes that pick one picture per seek. One thread drives it (open, capture, free); cancel
/// may be called from any thread.
typedef struct MeThumbnailer MeThumbnailer;
typedef enum {
    ME_THUMBNAIL_OK,
    ME_THUMBNAIL_ERROR,      // the pipeline posted an error: me_thumbnailer_take_error
    ME_THUMBNAIL_CANCELLED,  // me_thumbnailer_cancel
    ME_THUMBNAIL_TIMED_OUT,
    ME_THUMBNAIL_NO_VIDEO,   // opened, but the movie has no video stream
    ME_THUMBNAIL_NO_PICTURE, // the stream ended before any picture came out
    ME_THUMBNAIL_REFUSED,    // a state change or the seek was refused
    ME_THUMBNAIL_STALLED,    // a demuxer gave up while decodebin set it up (its error was dropped)
    ME_THUMBNAIL_UNDECODABLE, // the video decoder got to the end without a picture
    ME_THUMBNAIL_BROKEN,     // an error came after the previous capture: make a new pipeline
} MeThumbnailResult;
/// The pipeline for `uri`, at NULL; NULL when uridecodebin or fakesink is missing.
MeThumbnailer *me_thumbnailer_new(const gchar *uri);
/// The pipeline's uridecodebin (borrowed), for its source-setup signal.
GstElement *me_thumbnailer_decodebin(MeThumbnailer *thumbnailer);
/// Brings the pipeline to PAUSED and waits until its streams are exposed.
MeThumbnailResult me_thumbnailer_open(MeThumbnailer *thumbnailer, guint64 timeout_ns);
/// The movie's duration, or GST_CLOCK_TIME_NONE.
GstClockTime me_thumbnailer_duration(MeThumbnailer *thumbnailer);
/// Seeks to `time` (stream time) and waits for its picture: with `exact`, the one on screen at
/// `time`; otherwise the keyframe at or before it, the only picture decoded. `sample` gets the
/// picture (with caps and the segment that maps its PTS to stream time) on ME_THUMBNAIL_OK.
MeThumbnailResult me_thumbnailer_capture(MeThumbnailer *thumbnailer, GstClockTime time, gboolean exact,
                                         guint64 timeout_ns, GstSample **sample);
/// Makes the capture under way (or the next one) return ME_THUMBNAIL_CANCELLED at once.
void me_thumbnailer_cancel(MeThumbnailer *thumbnailer);
/// Clears a cancel, before the thread that drives the pipeline looks for a new request.
void me_thumbnailer_reset_cancel(MeThumbnailer *thumbnailer);
/// The first ERROR message since it was last taken (transfer full), or NULL.
GstMessage *me_thumbnailer_take_error(MeThumbnailer *thumbnailer);
/// What typefind found the stream to be (caps as text; g_free it), or NULL.
gchar *me_thumbnailer_stream_caps(MeThumbnailer *thumbnailer);
/// The video's image-orientation tag: 0-3 rotate by 0, 90, 180, 270 degrees clockwise; 4-7
/// mirror horizontally, then rotate the same way.
gint me_thumbnailer_orientation(MeThumbnailer *thumbnailer);
/// How many pictures came out of the decoder during the latest capture.
guint me_thumbnailer_pictures_decoded(MeThumbnailer *thumbnailer);
/// Sets the pipeline to NULL (joining its streaming threads) and frees it.
void me_thumbnailer_free(MeThumbnailer *thumbnailer);
/// The sample's picture converted to I420 (GstVideoConverter), for formats other than I420/NV12.
GstSample *me_sample_to_i420(GstSample *sample);
/// Whether the calling thread is one of the engine's own: a player's thread (`me-player`) or a
/// thumbnail pipeline's (`me-thumbs`), where waiting for a thumbnail could wait for itself.
gboolean me_on_engine_thread(void);

// MARK: Image encoding (imageencode.c).
/// Encodes `width`x`height` RGBA pixels (rows of `stride` bytes) as PNG, or as JPEG at
/// `quality` (1-100), with GStreamer's pngenc/jpegenc. NULL with `error` set (g_free it).
GBytes *me_encode_rgba(const guint8 *rgba, gint width, gint height, gint stride, gboolean jpeg, gint quality,
                       gchar **error);
/// Frees the encoders me_encode_rgba keeps between calls (before gst_deinit, for leak checks).
void me_release_image_encoders(void);

// MARK: Network buffering (buffering.c).
/// The buffering elements of one playbin (queue2 for progressive downloads, decodebin's
/// multiqueue for HLS and DASH), found as playbin adds them, with the player's thresholds.
typedef struct MeBuffering MeBuffering;
/// Watches `playbin` for buffering elements and gives each the thresholds, as fractions of its
/// maximum (playbin's buffer-duration): `low` is where buffering starts (a stall), `high`
/// where it ends (100 %). Freed with the playbin; the handle stays valid as long as it.
MeBuffering *me_buffering_watch(GstElement *playbin, gdouble low, gdouble high);
/// Moves the end of buffering (after the first start, to the resume threshold), on the elements
/// found so far and those still to come.
void me_buffering_set_high(MeBuffering *buffering, gdouble high);
/// How much the progressive download's queue2 holds ahead of what it delivered, in time (queue2
/// estimates it from the download rate), or -1 when there is no such queue.
gint64 me_buffering_level_time(MeBuffering *buffering);
/// In download mode, where the downloaded range that holds `position_percent` (of
/// GST_FORMAT_PERCENT_MAX) ends, in the same unit; -1 when unknown.
gint64 me_buffering_downloaded_until(GstElement *playbin, gint64 position_percent);

// MARK: Bytes received (transfer.c).
/// Counts the bytes a source element delivers (a probe on its source pad), and when the first
/// and the latest arrived, for the access log's bytes transferred and observed bitrate.
typedef struct MeTransferCounter MeTransferCounter;
MeTransferCounter *me_transfer_counter_new(void);
/// Counts what `source` delivers from now on (added to what earlier sources delivered), and posts
/// ME_MESSAGE_DOWNLOAD_COMPLETE from it when its stream ends.
void me_transfer_counter_watch(MeTransferCounter *counter, GstElement *source);
/// Starts again from zero (another movie in the same pipeline).
void me_transfer_counter_reset(MeTransferCounter *counter);
/// The bytes so far, and the seconds between the first and the latest of them.
void me_transfer_counter_read(MeTransferCounter *counter, guint64 *bytes, gdouble *seconds);
/// Frees the counter once no probe can call it (each probe holds a reference).
void me_transfer_counter_unref(MeTransferCounter *counter);

// MARK: Timed metadata (timedmetadata.c)
/// Called for every element added anywhere in a player's pipeline: on a tsdemux, makes an ID3
/// timed-metadata stream (PMT stream type 0x15) visible and posts ME_MESSAGE_TIMED_METADATA for
/// each ID3 tag it carries, at the tag's presentation time, as the demuxer reads it; on an
/// id3demux, posts the tag at the start of packed audio; on a decodebin, keeps KLV streams
/// (which the rewritten ID3 streams look like to tsdemux) from being reported as a missing plugin.
void me_watch_timed_metadata(GstElement *element);
/// Rewrites, in one 188-byte TS packet holding a whole PMT section with an intact CRC, each
/// entry of an ID3 metadata stream (stream type 0x15 described by a metadata or registration
/// descriptor 'ID3 ') into a private stream (0x06) registered 'KLVA', which tsdemux 1.22 exposes,
/// and recomputes the CRC. Writes the rewritten streams' PIDs to `pids` (up to `capacity`) and
/// returns how many; 0, the packet untouched, for any other packet, however malformed.
int me_ts_rewrite_id3_pmt(guint8 *packet, guint16 *pids, int capacity);
/// gst_tag_to_id3_tag: the ID3v2 frame ID of a GStreamer tag ("title" -> "TIT2"), or NULL.
const gchar *me_tag_to_id3_frame(const gchar *tag);
/// GST_TYPE_TAG_LIST and GST_TYPE_SAMPLE (macros).
GType me_type_tag_list(void);
GType me_type_sample(void);

// MARK: Closed captions (captions.c, through outputbin.c)
/// Called on the streaming thread with one frame's caption data: `time` is the frame's stream
/// time (-1 when unknown), `type` its GstVideoCaptionType (1 to 4); or, with `type` 0 and no
/// data, for a flush.
typedef void (*MeCaptionCallback)(gpointer user_data, gint64 time, gint type, const guint8 *data, gsize size);
/// Hands the caption metas of the frames entering a video output bin (me_video_output_bin_new,
/// its input watched by me_video_output_bin_watch_input) to `callback`, with each frame's stream
/// time; `destroy` frees `user_data` with the bin. Call before the pipeline starts.
void me_video_output_bin_watch_captions(GstElement *bin, MeCaptionCallback callback, gpointer user_data,
                                        GDestroyNotify destroy);
