/// Every human string of the bp-init and wearing-opt flows, their prompts and results, and of
/// `history`'s text.
///
/// The key is the msgctxt of the string's entry in `po/corsano.pot` and every `po/LANG.po`; its
/// English is in `Strings+en.swift` (docs/localization.md: adding a string). Placeholders are
/// positional, `{1}`, `{2}`…, filled by `Localizer`; each translation uses exactly the
/// placeholders of the English text (`scripts/l10n check`). Where `{1}` is a count the entry has
/// plural forms, looked up with `Localizer[key, count:]`. Grouped by screen; names follow the
/// SDK's step names (seeds: "Flow reference").
public enum L10nKey: String, CaseIterable, Sendable {
    // Flow titles and start
    case bpTitle, woTitle, attemptsAvailable, preparationTitle, promptStart

    // bp-init: needsCuffPairing, instructions (+ preparation checklist)
    case bpPairingTitle, bpPairingBody, bpPairingPrompt
    case bpInstructionsTitle, bpInstructionsBody
    case bpPrepCuffFit, bpPrepArmPosition, bpPrepSitAndRest

    // bp-init: measuring, measurementRecorded
    case bpMeasuringTitle, bpPressStart, bpWaitingForCuff, promptTypedReading
    case measurementLine, measurementTypedIn, bpMeasurementRecorded
    case readingShort, readingShortNoPulse

    // bp-init: attempts, retryPrompt, terminal screens
    case bpAttemptAccepted, bpAttemptRejected
    case retryTitle, bpRetryBody, retryQuestion, answersYes
    case bpSuccessTitle, bpSuccessBody, bpSummaryTitle, bpSummaryBody
    case readingsHeading, readingsNone, verdictAccepted, verdictRejected

    // wearing-opt: preparation substeps, profile
    case woPrepSkinHairWrist, woPrepStrapTightness, woPrepPlacement
    case profilePushed, profileSkipped, profileValues
    case hairDensityNone, hairDensityLow, hairDensityMedium, hairDensityHigh, wristLeft, wristRight
    case pickSkinTone, pickHairDensity, pickWrist, pressEnter

    // wearing-opt: armedPreparing, running, progress
    case woInstructionsTitle, woRemainStill, woInstructionsBody, woSittingCard, woLyingCard
    case woRunningTitle, woRunningBody, progressLine

    // wearing-opt: attempts, retry with position picker, terminal screens
    case woAttemptSucceeded, woAttemptFailed
    case woRetryBody, positionQuestion, positionHeading, positionSeated, positionSupine
    case seatedStep1, seatedStep2, seatedStep3, supineStep1, supineStep2
    case woSuccessTitle, woSuccessBody, woFailureTitle, woFailureBody

    // wearing-opt failure reasons
    case reasonSignalQualityTooLow, reasonNotWornCorrectly, reasonBleTimeout, reasonUnknown

    // Results (`finished`)
    case resultHeading
    case resultBPSuccess, resultCancelled, resultBraceletDisconnected
    case resultCuffNoReading, resultCuffDisconnected, resultCuffStale, resultCuffFuture, resultCuffUnknown
    case resultBPFailedAfterRetries, resultWOSuccess, resultWOFailedAfterRetries, resultOther

    // Durations (ages of stale readings, run length)
    case durationSeconds, durationMinutes, durationHours, durationDays

    // Dropped cuff readings
    case droppedReplayed, droppedDuplicate, droppedUnanchored, droppedIncomplete, droppedInvalid, droppedOther

    // Plan restore
    case planRestored, planRestoredJournal

    // Errors a user sees at a prompt or at start
    case errorTypedReading, errorSystolicNotAboveDiastolic, errorValueOutOfRange, fieldSystolic, fieldDiastolic, fieldPulse
    case errorBraceletUnavailable, errorWrongModel, errorFirmwareTooOld
    // `history` text: a run's header, result and readings; `history --due`
    case historyRunHeader, historyRunGateway, historyNotFinished, historyEnded, historyMeasured
    case historyKilledPlanRestored, historyPlanRestoreRecord, answersNo, answerYesOrNo
    case historyDue, historyNeverCalibrated
    // Multi-set calibration: where the operator is, and history --due's next sets
    case resultSetRecorded, historyNextSet
    // `history --due`: an open calibration's next set due now; one expired (start a new calibration).
    case historySetDue, historyCalibrationExpired
    // `report`: calibration certificate and bracelet history
    case reportCertificate, reportHistory, reportPageOf, reportNumber, reportIssued, reportItem, reportBraceletLine
    case reportGateway, reportOperator, reportCuff, reportClockAnchor, reportAnchorValue, reportNotRecorded
    case reportProtocol, reportSingleSession, reportPerformed, reportReadings
    case reportColumnMeasured, reportColumnCuffClock, reportColumnTypedIn, reportColumnPressure, reportColumnPulse
    case reportColumnMAP, reportColumnCategory, reportColumnVerdict, reportMAPDerived
    case reportResult, reportPlan, reportPlanRestored, reportPlanNotRestored
    case reportPlotTitle, reportAxisTime, reportAxisPressure
    case reportIntegrity, reportChainHead, reportRunHash
    case reportVerification, reportVerified, reportHashesOnly, reportNotVerified, reportNotVerifiedMark
    case reportSignatures, reportSignatureName, reportSignatureTime, reportSignatureMeaning, reportNotSigned
    case reportMeaningReview, reportMeaningApproval, reportMeaningResponsibility
    case reportCategoryOptimal, reportCategoryNormal, reportCategoryElevated, reportCategoryHighNormal
    case reportCategoryStage, reportCategoryGrade
    case reportCalibrations, reportColumnStarted, reportColumnFlow, reportLastCalibrated, reportNextDue, reportDueNotSet
    case reportGenerated
    // `validate --live`: the operator's prompt before each step of the same-arm sequence
    case validateTakeCuffReading, validateKeepStill
    case reportMultiSet, reportSets, reportColumnSet, reportColumnEnded, reportColumnMeanAll, reportColumnMeanLast2
    case reportSubject, reportSetOf, validationPairingSequential, validationPairingNearest, pickNotAChoice
    // `validate --report`: the validation report
    case validationReport, validationPairing, validationSampleSize, validationSampleValue, validationSmallerPanel, validationCriteria, validationCriterion, validationGradeOrBetter, validationVerdictPass, validationVerdictFail, validationNotAssessable, validationSummary, validationStatistic
    case validationPairs, validationMeanDifference, validationSDDifference, validationCriterion1, validationSDSubjectMeans, validationCriterion2Limit, validationCriterion2, validationBias, validationLimits, validationMAD, validationGrade, validationPass, validationFail
    case validationBlandAltmanTitle, validationScatterTitle, validationAxisMean, validationAxisDifference, validationAxisReference, validationAxisDevice, validationLineBias, validationLineLimit, validationSubjects, validationColumnSubject, validationSubjectsNote, validationGenerated
}
