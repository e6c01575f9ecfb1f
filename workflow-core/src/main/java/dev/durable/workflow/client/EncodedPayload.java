package dev.durable.workflow.client;

import java.lang.reflect.Type;

import org.jspecify.annotations.Nullable;

/**
 * A message payload in a gateway's own encoding (a REST request body, say), converted by
 * the gateway once the client has looked up the handler it is for: with
 * {@link WorkflowHandle#signalEncoded}, {@link WorkflowHandle#queryEncoded} and
 * {@link WorkflowHandle#startUpdateEncoded} a message costs one read of the run and one
 * handler lookup.
 */
@FunctionalInterface
public interface EncodedPayload {

	/**
	 * The payload as a value of the handler's parameter type.
	 * @param parameterType the handler's parameter type; for a signal declared for
	 * {@code Workflows.receive}, the type of its {@code Signal} field, {@code Object}
	 * when declared by {@code @Workflow(receives)}; {@code Object} for a dynamic handler;
	 * {@code null} when the handler takes no parameter (a payload is then an error)
	 * @return the value, {@code null} for none
	 * @throws dev.durable.workflow.failure.PayloadException when the payload does not fit
	 * the type
	 */
	@Nullable Object convert(@Nullable Type parameterType);

}
