extension FlowNarrator {
    /// The screen for a `step` event: the SDK's step names of both flows (seeds: "Step values",
    /// "Flow reference").
    mutating func step(_ event: FlowEvent) -> [TextBlock] {
        let l = localizer
        let name = event["step"]?.stringValue ?? ""
        if let p = event["position"]?.stringValue { position = p }
        if event.flow == "wearing-opt" { return wearingStep(name, event) }
        switch name {
        case "needsCuffPairing":
            return [.title(l[.bpPairingTitle]), .text(l[.bpPairingBody], tone: .plain)]
        case "instructions":
            var blocks: [TextBlock] = [.title(l[.bpInstructionsTitle]), .text(l[.bpInstructionsBody], tone: .plain)]
            if event["preparation"]?.boolValue ?? includePreparation {
                blocks += [.text(l[.preparationTitle], tone: .plain),
                           .list([l[.bpPrepCuffFit], l[.bpPrepArmPosition], l[.bpPrepSitAndRest]], numbered: false)]
            }
            return blocks
        case "measuring":
            let index = event["index"]?.intValue ?? measurementsThisAttempt + 1
            let attempt = event["attempt"]?.intValue ?? attemptsFinished + 1
            return [.title(l[.bpMeasuringTitle, index, attempt]), .text(l[.bpPressStart], tone: .action),
                    .text(l[.bpWaitingForCuff], tone: .note)]
        case "measurementRecorded":
            return [.text(l[.bpMeasurementRecorded], tone: .plain)]
        case "retryPrompt":
            return [.title(l[.retryTitle]), .text(l[.bpRetryBody], tone: .plain)]
        case "finalSuccess":
            return [.title(l[.bpSuccessTitle]), .text(l[.bpSuccessBody], tone: .success)]
        case "finalFailure":
            return [.title(l[.bpSummaryTitle]), .text(l[.bpSummaryBody], tone: .plain)]
        default:
            return []
        }
    }

    func wearingStep(_ name: String, _ event: FlowEvent) -> [TextBlock] {
        let l = localizer
        switch name {
        case "preparation":
            return [.title(l[.preparationTitle]),
                    .list([l[.woPrepSkinHairWrist], l[.woPrepStrapTightness], l[.woPrepPlacement]], numbered: true)]
        case "armedPreparing":
            // The flow names the position and its instruction steps (2 supine, 3 seated); without
            // them the seed's two reference cards stand in.
            var blocks: [TextBlock] = [.title(l[.woInstructionsTitle]), .text(l[.woRemainStill], tone: .action),
                                       .text(l[.woInstructionsBody], tone: .plain)]
            guard position != nil || event["instructions"] != nil else {
                return blocks + [.list([l[.woSittingCard], l[.woLyingCard]], numbered: false)]
            }
            let steps = event["instructions"]?.arrayValue?.compactMap { $0.stringValue }.map(instructionStep)
            blocks += [.text(l[.positionHeading, l.position(position)], tone: .plain),
                       .list(steps ?? l.positionSteps(position), numbered: true)]
            return blocks
        case "running":
            return [.title(l[.woRunningTitle]), .text(l[.woRunningBody], tone: .plain)]
        case "retryPrompt":
            return [.title(l[.retryTitle]), .text(l[.woRetryBody], tone: .plain)]
        case "finalSuccess":
            return [.title(l[.woSuccessTitle])]
        case "finalFailure":
            return [.title(l[.woFailureTitle])]
        default:
            return []
        }
    }

    /// One instruction step as the wearing flow names it (`BraceletPosition.instructionSteps`).
    func instructionStep(_ name: String) -> String {
        switch name {
        case "sitUpright": return localizer[.seatedStep1]
        case "forearmOnDesk": return localizer[.seatedStep2]
        case "handFlatOnDesk": return localizer[.seatedStep3]
        case "lieOnBack": return localizer[.supineStep1]
        case "armAlongsideBody": return localizer[.supineStep2]
        default: return name
        }
    }
}
