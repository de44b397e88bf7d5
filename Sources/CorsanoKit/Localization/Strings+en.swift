extension StringTables {
    /// English: the source of every catalog and the fallback for every other locale.
    ///
    /// Exhaustive, so a new key does not compile until it has English text. `scripts/l10n update`
    /// extracts these lines into `po/corsano.pot` (key as msgctxt, text as msgid); a `///` line
    /// right above a case becomes a comment for translators. One `case .key: return "text"` per
    /// line, or `.plural(["singular", "plural"])` where `{1}` is a count.
    static func en(_ key: L10nKey) -> CatalogText {
        switch key {
        case .bpTitle: return "Blood pressure calibration (NIBP)"
        case .woTitle: return "Wearing optimization"
        /// {1}: how many attempts the run may make (1 or more).
        case .attemptsAvailable: return .plural(["Attempts available: {1}", "Attempts available: {1}"])
        case .preparationTitle: return "Preparation"
        case .promptStart: return "Press Enter to start, Ctrl-C to cancel."
        case .bpPairingTitle: return "Pair a blood pressure cuff"
        case .bpPairingBody: return "No blood pressure cuff is paired. Pair a cuff to continue."
        case .bpPairingPrompt: return "Pair a cuff, then press Enter."
        case .bpInstructionsTitle: return "Before you start"
        case .bpInstructionsBody: return "The bracelet is calibrated against your blood pressure cuff. You take two measurements with the cuff, sometimes a third. Each takes about 40 seconds."
        case .bpPrepCuffFit: return "Cuff fit: wrap the cuff snugly around your bare upper arm, about 2 cm above the elbow."
        case .bpPrepArmPosition: return "Arm position: rest your arm on a table with the cuff at heart level."
        case .bpPrepSitAndRest: return "Sit and rest: sit upright, back supported, feet flat on the floor. Rest for 5 minutes and do not talk during the measurement."
        case .bpMeasuringTitle: return "Measurement {1}, attempt {2}"
        case .bpPressStart: return "Press START on the BP cuff monitor."
        case .bpWaitingForCuff: return "Waiting for the cuff reading…"
        /// A prompt: keep the trailing space.
        case .promptTypedReading: return "Type the reading as systolic/diastolic pulse (for example 120/80 72): "
        case .measurementLine: return "Systolic {1} mmHg, diastolic {2} mmHg, pulse {3} bpm"
        case .measurementTypedIn: return "(typed in)"
        case .bpMeasurementRecorded: return "Measurement recorded."
        case .readingShort: return "{1}/{2} mmHg, pulse {3} bpm"
        case .readingShortNoPulse: return "{1}/{2} mmHg, no pulse"
        case .bpAttemptAccepted: return "Attempt {1}: the bracelet accepted the calibration."
        case .bpAttemptRejected: return "Attempt {1}: the bracelet did not accept the calibration."
        case .retryTitle: return "Try again"
        case .bpRetryBody: return "The bracelet did not accept these measurements. Rest for a moment, check the fit of the cuff and measure again."
        /// A prompt: keep the trailing space; the letters in brackets are the first of answersYes.
        case .retryQuestion: return "Start another attempt? [y/n] "
        /// Words accepted as yes, comma-separated, lower case; y and yes are accepted in every language.
        case .answersYes: return "y,yes"
        /// Words accepted as no, comma-separated, lower case; n and no are accepted in every language.
        case .answersNo: return "n,no"
        /// Said when the y/n question got an answer that is neither yes nor no; the question is asked again.
        case .answerYesOrNo: return "Please answer y or n."
        case .bpSuccessTitle: return "Calibration complete"
        case .bpSuccessBody: return "The bracelet's blood pressure model is calibrated and its normal monitoring plan is restored."
        case .bpSummaryTitle: return "Calibration summary"
        case .bpSummaryBody: return "The bracelet could not be calibrated with these measurements. Its normal monitoring plan is restored."
        case .readingsHeading: return "Readings used:"
        case .readingsNone: return "No readings were taken."
        case .verdictAccepted: return "accepted"
        case .verdictRejected: return "not accepted"
        case .woPrepSkinHairWrist: return "Skin tone, hair density and wrist: choose your skin tone, the hair density at your wrist and the wrist that wears the bracelet."
        case .woPrepStrapTightness: return "Strap tightness: close the strap so the bracelet sits firmly without pinching; it must not slide."
        case .woPrepPlacement: return "Bracelet placement: wear the bracelet one finger's width above the wrist bone, sensor against the skin."
        case .profilePushed: return "Profile sent to the bracelet."
        case .profileSkipped: return "The bracelet already has this profile; nothing was sent."
        case .profileValues: return "Skin tone {1}, hair density: {2}, wrist: {3}"
        case .hairDensityNone: return "none"
        case .hairDensityLow: return "low"
        case .hairDensityMedium: return "medium"
        case .hairDensityHigh: return "high"
        case .wristLeft: return "left"
        case .wristRight: return "right"
        case .pickSkinTone: return "Skin tone, 1 (lightest) to 6 (darkest)"
        case .pickHairDensity: return "Hair density at the wrist ({1})"
        case .pickWrist: return "Wrist that wears the bracelet ({1})"
        case .pressEnter: return "[Enter]"
        case .woInstructionsTitle: return "Instructions"
        case .woRemainStill: return "Remain still for 1 minute."
        case .woInstructionsBody: return "The optimization takes about 2 minutes if you keep still, up to 4 minutes if you move."
        case .woSittingCard: return "Sitting: sit upright with your forearm resting on a table."
        case .woLyingCard: return "Lying: lie on your back with your arms relaxed beside your body."
        case .woRunningTitle: return "Optimizing the signal"
        case .woRunningBody: return "Keep still. The bracelet reports its progress every 5 seconds."
        case .progressLine: return "{1}%, signal quality {2}, movement {3}"
        case .woAttemptSucceeded: return "Attempt {1} succeeded."
        case .woAttemptFailed: return "Attempt {1} failed: {2}."
        case .woRetryBody: return "The signal was not good enough. Check the strap and keep still during the next attempt."
        /// A prompt: keep the trailing space; the user types 1 or 2.
        case .positionQuestion: return "Position for the next attempt: 1 seated, 2 supine [1]: "
        case .positionHeading: return "Position: {1}"
        case .positionSeated: return "seated"
        case .positionSupine: return "supine"
        case .seatedStep1: return "Sit upright on a chair with both feet flat on the floor."
        case .seatedStep2: return "Rest your forearm on the desk."
        case .seatedStep3: return "Lay your hand flat on the desk, palm down, and keep it still."
        case .supineStep1: return "Lie on your back."
        case .supineStep2: return "Keep your arms relaxed and still beside your body."
        case .woSuccessTitle: return "Wearing optimization complete"
        case .woSuccessBody: return "Signal quality {1}%, position: {2}, duration: {3}."
        case .woFailureTitle: return "Wearing optimization not completed"
        case .woFailureBody: return "No attempt reached a good enough signal. Last reason: {1}."
        case .reasonSignalQualityTooLow: return "the PPG signal quality is too low"
        case .reasonNotWornCorrectly: return "the bracelet is not worn correctly"
        case .reasonBleTimeout: return "the bracelet did not answer in time (Bluetooth timeout)"
        case .reasonUnknown: return "unknown reason ({1})"
        case .resultHeading: return "Result: {1}"
        /// {1}: number of measurements used (0 or more).
        case .resultBPSuccess: return .plural(["calibrated, measurements: {1}", "calibrated, measurements: {1}"])
        case .resultCancelled: return "cancelled"
        case .resultBraceletDisconnected: return "the bracelet disconnected"
        case .resultCuffNoReading: return "cuff error, no reading was received"
        case .resultCuffDisconnected: return "cuff error, the cuff disconnected"
        case .resultCuffStale: return "cuff error, the reading is {1} old"
        case .resultCuffFuture: return "cuff error, the reading is dated {1} in the future (check the cuff clock)"
        case .resultCuffUnknown: return "cuff error: {1}"
        /// {1}: number of attempts made.
        case .resultBPFailedAfterRetries: return .plural(["not calibrated, attempts: {1}", "not calibrated, attempts: {1}"])
        case .resultWOSuccess: return "optimized, signal quality {1}%, position: {2}"
        /// {1}: number of attempts made; {2}: a reason such as reasonBleTimeout.
        case .resultWOFailedAfterRetries: return .plural(["not optimized, attempts: {1}, last reason: {2}", "not optimized, attempts: {1}, last reason: {2}"])
        case .resultOther: return "ended ({1})"
        /// A length of time, {1} from 0 to 119.
        case .durationSeconds: return .plural(["{1} s", "{1} s"])
        /// A length of time, {1} from 2 to 119.
        case .durationMinutes: return .plural(["{1} min", "{1} min"])
        /// A length of time, {1} from 2 to 47.
        case .durationHours: return .plural(["{1} h", "{1} h"])
        /// A length of time, {1} is 2 or more.
        case .durationDays: return .plural(["{1} day", "{1} days"])
        case .droppedReplayed: return "Ignored a cuff reading taken before this measurement was requested: {1}"
        case .droppedDuplicate: return "Ignored a cuff reading that was already used: {1}"
        case .droppedUnanchored: return "Ignored a cuff reading whose cuff time was not converted to real time: {1}"
        case .droppedIncomplete: return "Ignored a cuff reading without a pulse: {1}"
        case .droppedInvalid: return "Ignored input that is not a valid reading: {1}"
        case .droppedOther: return "Ignored a cuff reading ({1}): {2}"
        case .planRestored: return "The bracelet's previous plan ({1}) was restored."
        case .planRestoredJournal: return "The bracelet's plan ({1}) was restored after an interrupted earlier run."
        case .errorTypedReading: return "Not understood. Type systolic/diastolic pulse, for example 120/80 72."
        case .errorSystolicNotAboveDiastolic: return "The systolic value must be higher than the diastolic value."
        case .errorValueOutOfRange: return "{1} is outside the plausible range ({2} to {3})."
        case .fieldSystolic: return "Systolic"
        case .fieldDiastolic: return "Diastolic"
        case .fieldPulse: return "Pulse"
        case .errorBraceletUnavailable: return "The bracelet is not available: {1}"
        case .errorWrongModel: return "This bracelet is a {1}; a 287-2 is required."
        case .errorFirmwareTooOld: return "Bracelet firmware {1} is too old; wearing optimization needs firmware 7.0 or later."
        /// history, a run's first line: {1} start time (RFC 3339), {2} flow (bp-init or wearing-opt), {3} bracelet serial, {4} model, {5} firmware version, {6} run ID; keep the two spaces between fields.
        case .historyRunHeader: return "{1}  {2}  bracelet {3} ({4}, firmware {5})  run {6}"
        /// history, added after two spaces to a run's first line: {1} the gateway (host name or --gateway ID) that ran it.
        case .historyRunGateway: return "gateway {1}"
        /// history, a run's result when none was recorded: its process is still running or was killed (the audit log cannot tell which).
        case .historyNotFinished: return "not finished (still running, or killed)"
        /// history, the result of a run that was killed and whose plan a later command restored: {1} the plan, {2} when (RFC 3339).
        case .historyKilledPlanRestored: return "killed; plan {1} restored at {2}"
        /// history, the record that a killed run's plan was restored: {1} the plan, {2} the killed run's id ("-" when none was recorded).
        case .historyPlanRestoreRecord: return "plan {1} restored for killed run {2}"
        /// history, after a run's result: {1} the time the run ended (RFC 3339).
        case .historyEnded: return "(ended {1})"
        /// history, after a reading the run was fed: {1} the time the cuff took it (RFC 3339, as the cuff reported it).
        case .historyMeasured: return "measured {1}"
        /// history --due: {1} whole days since bracelet {2}'s last successful calibration, which ended at {3} (an RFC 3339 time).
        case .historyDue: return .plural(["{2}: last calibrated {3}, {1} day ago; due for recalibration", "{2}: last calibrated {3}, {1} days ago; due for recalibration"])
        /// history --due: bracelet {1} never had a successful calibration.
        case .historyNeverCalibrated: return "{1}: no successful calibration recorded; due for calibration"
        /// bp-init, a multi-set calibration's set recorded (not its last): {1} this set's number, {2} the sets in the calibration, {3} the local time (HH:MM) from which the next set may run.
        case .resultSetRecorded: return "set {1} of {2}; next set from {3}"
        /// history --due: bracelet {1}'s open multi-set calibration has set {2} of {3} next, due from {4} (an RFC 3339 time).
        case .historyNextSet: return "{1}: set {2} of {3} of its calibration, due from {4}"
        case .historySetDue: return "{1}: set {2} of {3} of its calibration due now (since {4})"
        case .historyCalibrationExpired: return "{1}: calibration expired at {2} (set {3} of {4} was not started in time): start a new calibration"
        /// report: the title of a calibration certificate (ISO/IEC 17025 7.8).
        case .reportCertificate: return "Calibration certificate"
        /// report: the title of a bracelet's calibration history.
        case .reportHistory: return "Calibration history"
        /// report, every printed page's header: {1} this page's number, {2} the number of pages.
        case .reportPageOf: return "Page {1} of {2}"
        /// report: label of the certificate's unique number (the run's id).
        case .reportNumber: return "Certificate number"
        /// report: label of the date the document was made.
        case .reportIssued: return "Issued"
        /// report: label of the item calibrated (the bracelet).
        case .reportItem: return "Item calibrated"
        /// report: the bracelet: {1} its model (287-2), {2} its serial number, {3} its firmware version.
        case .reportBraceletLine: return "Corsano CardioWatch {1}, serial number {2}, firmware {3}"
        /// report: label of the gateway computer that ran the calibration.
        case .reportGateway: return "Gateway"
        /// report: label of the person who ran the calibration.
        case .reportOperator: return "Operator"
        /// report: label of the reference blood-pressure cuff.
        case .reportCuff: return "Reference cuff"
        /// report: label of how the cuff's clock was mapped to real time.
        case .reportClockAnchor: return "Clock anchor"
        /// report: a clock anchor: {1} the cuff clock's reading, {2} the real time at that moment.
        case .reportAnchorValue: return "cuff clock {1} = real time {2}"
        /// report: a value the audit log does not hold.
        case .reportNotRecorded: return "not recorded"
        /// report: label of the calibration protocol.
        case .reportProtocol: return "Protocol"
        /// report: the protocol of a calibration done in one sitting.
        case .reportSingleSession: return "single session"
        /// report: label of when the calibration ran (a start and an end time follow).
        case .reportPerformed: return "Performed"
        /// report: heading of the readings table.
        case .reportReadings: return "Readings"
        /// report, readings table column: when the cuff took the reading (real time).
        case .reportColumnMeasured: return "Measured"
        /// report, readings table column: the time as the cuff's own clock gave it.
        case .reportColumnCuffClock: return "Cuff clock"
        /// report, readings table column: whether the reading was typed in by hand.
        case .reportColumnTypedIn: return "Typed in"
        /// report, readings table column: systolic/diastolic pressure.
        case .reportColumnPressure: return "SYS/DIA (mmHg)"
        /// report, readings table column: pulse rate.
        case .reportColumnPulse: return "Pulse (bpm)"
        /// report, readings table column: mean arterial pressure.
        case .reportColumnMAP: return "MAP (mmHg)"
        /// report, readings table column: the blood-pressure category of the reading.
        case .reportColumnCategory: return "Category"
        /// report, readings table column: whether the bracelet's firmware accepted the reading.
        case .reportColumnVerdict: return "Bracelet's verdict"
        /// report, note under the readings table for a MAP marked with †.
        case .reportMAPDerived: return "† MAP derived as diastolic + (systolic − diastolic) / 3; the cuff did not report it."
        /// report: label of the calibration's result.
        case .reportResult: return "Result"
        /// report: label of the bracelet's measurement plan after the calibration.
        case .reportPlan: return "Measurement plan"
        /// report: the plan the calibration switched was put back when the run ended.
        case .reportPlanRestored: return "restored when the run ended"
        /// report: {1} the plan left switched on, {2} the plan that was not put back, {3} why.
        case .reportPlanNotRestored: return "{1} left switched on; {2} not restored: {3}"
        /// report, the plot's title: {1} the guideline whose categories are drawn (e.g. ACC/AHA 2017).
        case .reportPlotTitle: return "Readings over time, with {1} blood-pressure categories"
        /// report, the plot's horizontal axis.
        case .reportAxisTime: return "Time (UTC)"
        /// report, the plot's vertical axis.
        case .reportAxisPressure: return "Blood pressure (mmHg)"
        /// report: heading of the audit log's integrity data.
        case .reportIntegrity: return "Audit record"
        /// report: label of the hash of the audit chain's newest record.
        case .reportChainHead: return "Audit chain head"
        /// report: label of the SHA-256 of this run's records.
        case .reportRunHash: return "Content hash of this run"
        /// report: label of whether the records shown verify against the audit chain.
        case .reportVerification: return "Verification"
        /// report: the records shown verify against the audit chain, HMAC checked.
        case .reportVerified: return "Verified against the audit chain (HMAC checked)"
        /// report: the records shown verify by their hashes; no audit key was at hand.
        case .reportHashesOnly: return "Hashes only, HMAC not checked"
        /// report: the records shown do not match the audit chain (what follows in parentheses is English).
        case .reportNotVerified: return "These records do not match the audit chain (corsano history --verify names what changed)"
        /// report: the mark in every page's header of a document showing records that do not verify.
        case .reportNotVerifiedMark: return "NOT VERIFIED"
        /// report: heading of the electronic signatures (21 CFR 11.50).
        case .reportSignatures: return "Signatures"
        /// report, signatures table column: the signer's printed name.
        case .reportSignatureName: return "Name"
        /// report, signatures table column: when it was signed.
        case .reportSignatureTime: return "Date and time"
        /// report, signatures table column: what the signature means.
        case .reportSignatureMeaning: return "Meaning"
        /// report: the run has no signature yet (blank lines to sign by hand follow).
        case .reportNotSigned: return "Not signed."
        /// report: signature meaning: the signer reviewed the calibration.
        case .reportMeaningReview: return "review"
        /// report: signature meaning: the signer approved the calibration.
        case .reportMeaningApproval: return "approval"
        /// report: signature meaning: the signer takes responsibility for the calibration.
        case .reportMeaningResponsibility: return "responsibility"
        /// report: blood-pressure category (ESH 2023), below 120/80.
        case .reportCategoryOptimal: return "Optimal"
        /// report: blood-pressure category (ACC/AHA 2017 and ESH 2023).
        case .reportCategoryNormal: return "Normal"
        /// report: blood-pressure category (ACC/AHA 2017), systolic 120-129.
        case .reportCategoryElevated: return "Elevated"
        /// report: blood-pressure category (ESH 2023), 130-139/85-89.
        case .reportCategoryHighNormal: return "High normal"
        /// report: blood-pressure category (ACC/AHA 2017): {1} the stage, 1 or 2.
        case .reportCategoryStage: return "Stage {1} hypertension"
        /// report: blood-pressure category (ESH 2023): {1} the grade, 1 to 3.
        case .reportCategoryGrade: return "Grade {1} hypertension"
        /// report, history: heading of the table of the bracelet's calibrations.
        case .reportCalibrations: return "Calibrations"
        /// report, history table column: when a run started.
        case .reportColumnStarted: return "Started"
        /// report, history table column: which flow ran (bp-init or wearing-opt).
        case .reportColumnFlow: return "Flow"
        /// report, history: label of when the last successful calibration ended.
        case .reportLastCalibrated: return "Last successful calibration"
        /// report, history: label of when the next calibration is due.
        case .reportNextDue: return "Next calibration due"
        /// report, history: no recalibration interval was given, so no due date is computed.
        case .reportDueNotSet: return "no interval given (report --due DAYS)"
        /// report, the document's foot: {1} corsano's version.
        case .reportGenerated: return "Made by corsano {1} from the audit log."
        /// validate --live, before a reference (R) step of the same-arm sequence: {1} the step's number, {2} the steps in the sequence.
        case .validateTakeCuffReading: return "Step {1} of {2}: take a cuff reading on the left arm now"
        /// validate --live, before a device (T) step: {1} the step's number, {2} the steps in the sequence; the bracelet takes its spot measurement.
        case .validateKeepStill: return "Step {1} of {2}: keep still: the bracelet measures"
        /// report, certificate protocol: {1} the protocol (corsano or sets), {2} this run's set, {3} the number of sets, {4} the calibration's id.
        case .reportMultiSet: return "multi-set calibration ({1}), set {2} of {3}, calibration {4}"
        /// report, certificate: heading of the multi-set calibration's sets.
        case .reportSets: return "Sets of the calibration"
        /// report, certificate: column of the set's number.
        case .reportColumnSet: return "Set"
        /// report, certificate: column of when the set ended.
        case .reportColumnEnded: return "Ended"
        /// report, certificate: mean of all the set's readings (AHA).
        case .reportColumnMeanAll: return "Mean of all readings (mmHg)"
        /// report, certificate: mean of readings 2 and 3 (ESH).
        case .reportColumnMeanLast2: return "Mean of readings 2 and 3 (mmHg)"
        /// wearing-opt, a preparation question answered with something that is not one of its choices: {1} the answer as typed (the question follows on the next line).
        case .pickNotAChoice: return "'{1}' is not one of the choices."
        /// report, certificate: label of the person the bracelet was calibrated on (the study participant's id follows).
        case .reportSubject: return "Subject"
        /// report, certificate: heading of one set's readings: {1} the set's number, {2} the number of sets.
        case .reportSetOf: return "Set {1} of {2}"
        /// validate --report: the pairing rule that pairs each device value with the mean of the reference readings before and after it.
        case .validationPairingSequential: return "sequential (mean of the reference readings before and after)"
        /// validate --report: the pairing rule that pairs each reference reading with the nearest device value: {1} the window in seconds.
        case .validationPairingNearest: return "nearest device value within {1} s"
        /// validate --report: the document's title.
        case .validationReport: return "Validation report"
        /// validate --report: label of the pairing rule (its value is sequential or nearest, as --pairing writes it).
        case .validationPairing: return "Pairing"
        /// validate --report: label of the sample size.
        case .validationSampleSize: return "Sample size"
        /// validate --report: {1} subjects and {2} pairs measured, {3} subjects and {4} pairs the minimum.
        case .validationSampleValue: return "{1} subjects, {2} pairs; the minimum is {3} subjects, {4} pairs"
        /// validate --report: after the sample size when --min-subjects set a smaller panel.
        case .validationSmallerPanel: return "(a smaller panel than ISO 81060-2's 85 subjects and 255 pairs)"
        /// validate --report: label of the criteria that decide the result.
        case .validationCriteria: return "Criteria"
        /// validate --report: {1} is 1 or 2.
        case .validationCriterion: return "ISO 81060-2 criterion {1}"
        /// validate --report: {1} is A, B or C.
        case .validationGradeOrBetter: return "IEEE 1708 grade {1} or better"
        /// validate --report, result: {1} lists the criteria met.
        case .validationVerdictPass: return "Pass ({1})"
        /// validate --report, result: {1} lists the variables and criteria that fail.
        case .validationVerdictFail: return "Fail: {1}"
        /// validate --report, result: too few subjects or pairs.
        case .validationNotAssessable: return "Cannot be assessed: fewer subjects or pairs than the minimum"
        /// validate --report: heading of the summary table.
        case .validationSummary: return "Summary (mmHg; differences are device − reference)"
        /// validate --report: column heading of the statistics' names.
        case .validationStatistic: return "Statistic"
        /// validate --report: number of device–reference pairs.
        case .validationPairs: return "Pairs"
        /// validate --report: mean of the differences.
        case .validationMeanDifference: return "Mean difference"
        /// validate --report: standard deviation of the differences.
        case .validationSDDifference: return "SD of the differences"
        /// validate --report: criterion 1 with its limits.
        case .validationCriterion1: return "Criterion 1 (|mean| ≤ 5, SD ≤ 8)"
        /// validate --report: standard deviation of the per-subject mean differences.
        case .validationSDSubjectMeans: return "SD of the subject means"
        /// validate --report: the largest SD of subject means criterion 2 allows.
        case .validationCriterion2Limit: return "Criterion 2 limit"
        /// validate --report: criterion 2's verdict.
        case .validationCriterion2: return "Criterion 2"
        /// validate --report: the mean difference in the Bland–Altman analysis.
        case .validationBias: return "Bland–Altman bias"
        /// validate --report: bias ± 1.96 SD.
        case .validationLimits: return "95% limits of agreement"
        /// validate --report: mean of the absolute differences (IEEE 1708).
        case .validationMAD: return "Mean absolute difference"
        /// validate --report: the IEEE 1708 grade (A, B, C, D).
        case .validationGrade: return "IEEE 1708 grade"
        /// validate --report: a criterion is met.
        case .validationPass: return "pass"
        /// validate --report: a criterion is not met.
        case .validationFail: return "fail"
        /// validate --report: plot title; {1} is Systolic or Diastolic.
        case .validationBlandAltmanTitle: return "Bland–Altman plot, {1}: difference against the mean of device and reference"
        /// validate --report: plot title; {1} is Systolic or Diastolic.
        case .validationScatterTitle: return "{1}: device against reference, with the line of identity"
        /// validate --report: x axis of the Bland–Altman plot.
        case .validationAxisMean: return "Mean of device and reference (mmHg)"
        /// validate --report: y axis of the Bland–Altman plot.
        case .validationAxisDifference: return "Device − reference (mmHg)"
        /// validate --report: x axis of the scatter.
        case .validationAxisReference: return "Reference (mmHg)"
        /// validate --report: y axis of the scatter.
        case .validationAxisDevice: return "Device (mmHg)"
        /// validate --report: label of the bias line; {1} its value.
        case .validationLineBias: return "bias {1}"
        /// validate --report: label of a limit-of-agreement line; {1} its value.
        case .validationLineLimit: return "limit {1}"
        /// validate --report: heading of the per-subject table.
        case .validationSubjects: return "Subjects"
        /// validate --report: column heading.
        case .validationColumnSubject: return "Subject"
        /// validate --report: under the per-subject table.
        case .validationSubjectsNote: return "Per subject: pairs and mean differences, device − reference (mmHg)."
        /// validate --report, the document's foot: {1} corsano's version.
        case .validationGenerated: return "Made by corsano {1} from the readings given to validate."
        }
    }
}
