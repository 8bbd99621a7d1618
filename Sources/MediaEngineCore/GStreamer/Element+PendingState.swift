internal import CMediaEnginePipeline

extension Element {
    /// The elements inside this one (at any depth, itself included) still between two states,
    /// deepest first (`me_describe_pending_state_changes`): what holds up a state change that
    /// does not finish. Takes only object locks, never a state lock, so it answers while the
    /// change is stuck.
    var pendingStateChanges: String? {
        takeGString(me_describe_pending_state_changes(pointer))
    }
}
