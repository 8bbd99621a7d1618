extension PlayerMachine {
    /// Tags GStreamer reads from an ICY stream, and their ICY names.
    static let icyFields: [String: String] = ["title": "StreamTitle", "homepage": "StreamUrl"]

    /// The shortest wait asked for: a timer that fires a little before the item's time (the wall
    /// clock and the pipeline's drift apart) is re-armed for the rest, not for microseconds.
    static let timedMetadataMinimumWait = Duration.milliseconds(2)

    /// The longest wait asked for while an item waits. The wait is counted in wall time from the
    /// position, but a pipeline that stalled (a busy machine) and then catches up moves its
    /// position faster than the wall clock, dropping late frames: without a bound the item came
    /// out up to that catch-up late (seen: 0.4-0.6 s).
    static let timedMetadataMaximumWait = Duration.milliseconds(100)
}

/// Timed metadata: items the pipeline read (ID3 tags from a TS metadata stream or packed audio,
/// changed tags, ICY titles) are announced when playback reaches their time. The machine holds
/// them in ``TimedMetadataQueue``, hands out what is due whenever it learns the position, and
/// arms a timer for when the next item's time comes (``PlayerMachine/Timer/timedMetadata(session:)``).
extension PlayerMachine.State {
    /// Items of one ID3 tag, read at `time` in the segment numbered `seqnum`; `position` is where
    /// playback is.
    mutating func timedMetadataArrived(
        session: Int, _ items: [TimedMetadataItem], time: Duration, seqnum: UInt32?, position: Duration?
    ) {
        guard accepts(session) else { return }
        facts.timedMetadata.arrived(items, time: time, seqnum: seqnum)
        deliverTimedMetadata(position: position)
    }

    /// The owner looked at the position (a timer asked for came due, or playback changed).
    mutating func timedMetadataTick(session: Int, position: Duration?) {
        guard accepts(session) else { return }
        deliverTimedMetadata(position: position)
    }

    /// Tags that reached the player: what changed while the movie played (and, in an ICY stream,
    /// its title from the start) becomes timed metadata at `position`, where the sink that posted
    /// the tags is.
    mutating func timedTagsArrived(_ tags: [String: String], previous: [String: String], position: Duration?) {
        guard phase == .prepared || facts.isICYStream else { return }
        var items: [TimedMetadataItem] = []
        let time = position ?? lastPosition
        for name in tags.keys.sorted() where tags[name] != previous[name] {
            guard !TimedMetadataItem.technicalTags.contains(name), let value = tags[name] else { continue }
            if facts.isICYStream, let field = PlayerMachine.icyFields[name] {
                items.append(TimedMetadataItem(key: field, keySpace: .icy, value: .text(value), time: time))
            } else if phase == .prepared {
                items.append(TimedMetadataItem(key: name, keySpace: .gstreamerTag, value: .text(value), time: time))
            }
        }
        facts.timedMetadata.arrived(items, time: time, seqnum: nil)
        deliverTimedMetadata(position: position)
    }

    /// A seek numbered `seqnum` goes to the pipeline (every seek action passes here).
    mutating func timedMetadataSeekSent(seqnum: UInt32, plan: SeekPlan) {
        if facts.timedMetadata.seekSent(seqnum: seqnum, position: plan.position, flush: plan.flush) {
            publish(.timedMetadataChanged([]))
        }
    }

    /// Hands out what is due at `position`, one event per time, and asks to look again when the
    /// next item's time comes. Nothing is handed out before the movie is prepared (the position
    /// is not known yet), nor playing backwards.
    mutating func deliverTimedMetadata(position: Duration?) {
        guard phase == .prepared, hasSession, let position, segmentRate > 0 else { return }
        for batch in facts.timedMetadata.due(at: position) {
            publish(.timedMetadataChanged(batch))
        }
        guard playbackState == .playing else { return }
        var wait: Duration?
        if let next = facts.timedMetadata.nextTime {
            wait = min(
                PlayerMachine.timedMetadataMaximumWait,
                max(PlayerMachine.timedMetadataMinimumWait, (next - position) / segmentRate))
        } else if facts.timedMetadata.waitsForLoop {
            // The next pass begins when this one ends: look then.
            let end = playbackEnd ?? duration ?? position
            wait = max(PlayerMachine.timedMetadataMinimumWait, (end - position) / segmentRate) + .milliseconds(20)
        }
        guard let wait else { return }
        timedMetadataArmed = true
        perform(.startTimer(.timedMetadata(session: sessionID), after: wait))
    }
}
