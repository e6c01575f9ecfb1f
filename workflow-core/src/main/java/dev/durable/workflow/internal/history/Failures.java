package dev.durable.workflow.internal.history;

import java.io.PrintWriter;
import java.io.StringWriter;

import dev.durable.workflow.failure.ActivityFailure;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.failure.CanceledFailure;
import dev.durable.workflow.failure.ChildWorkflowFailure;
import dev.durable.workflow.failure.TerminatedFailure;
import dev.durable.workflow.failure.TimeoutFailure;
import dev.durable.workflow.payload.EncodedValue;
import dev.durable.workflow.payload.PayloadConverter;

/** Converts between thrown exceptions and their recorded {@link FailureInfo} form. */
public final class Failures {

	private static final int MAX_STACK = 8_000;

	private Failures() {
	}

	public static FailureInfo toInfo(Throwable t, PayloadConverter converter) {
		if (t == null) {
			return null;
		}
		FailureInfo cause = (t.getCause() != null && t.getCause() != t) ? toInfo(t.getCause(), converter) : null;
		if (t instanceof ApplicationFailure af) {
			byte[] details = null;
			EncodedValue encoded = af.getEncodedDetails();
			if (encoded != null) {
				details = (encoded.payload() != null) ? encoded.payload()
						: converter.toPayload(encoded.rawValue(), Object.class);
			}
			String stack = (af.getOriginalStackTrace() != null) ? af.getOriginalStackTrace() : stackTrace(t);
			return FailureInfo.application(af.getType(), af.getMessage(), af.isNonRetryable(), stack, details, cause);
		}
		if (t instanceof ActivityFailure af) {
			return FailureInfo.activity(af.getActivityType(), af.getActivityId(), af.getAttempt(), cause);
		}
		if (t instanceof ChildWorkflowFailure cf) {
			return FailureInfo.child(cf.getWorkflowType(), cf.getWorkflowId(), cause);
		}
		if (t instanceof TimeoutFailure tf) {
			return FailureInfo.timeout(tf.getTimeoutType(), tf.getMessage(), cause);
		}
		if (t instanceof CanceledFailure) {
			return FailureInfo.canceled(t.getMessage());
		}
		if (t instanceof TerminatedFailure) {
			return FailureInfo.terminated(t.getMessage());
		}
		return FailureInfo.application(t.getClass().getName(), t.getMessage(), false, stackTrace(t), null, cause);
	}

	public static RuntimeException toException(FailureInfo info, PayloadConverter converter) {
		Throwable cause = (info.cause() != null) ? toException(info.cause(), converter) : null;
		return switch (info.kind()) {
			case "ACTIVITY" -> new ActivityFailure(info.activityType(), info.activityId(), info.attempt(), cause);
			case "TIMEOUT" -> new TimeoutFailure(info.message(), info.timeoutType(), cause);
			case "CHILD" ->
				new ChildWorkflowFailure(
						"Child workflow " + info.type() + " (" + info.message() + ") did not complete"
								+ ((cause != null) ? ": " + cause.getMessage() : ""),
						info.type(), info.message(), cause);
			case "CANCELED" -> new CanceledFailure(info.message(), cause);
			case "TERMINATED" -> new TerminatedFailure(info.message());
			default -> ApplicationFailure.restore(info.message(), info.type(), info.nonRetryable(),
					(info.details() != null) ? EncodedValue.of(info.details(), converter) : null, cause,
					info.stackTrace());
		};
	}

	public static String stackTrace(Throwable t) {
		StringWriter out = new StringWriter();
		t.printStackTrace(new PrintWriter(out));
		String text = out.toString();
		return (text.length() > MAX_STACK) ? text.substring(0, MAX_STACK) + "..." : text;
	}

}
