package dev.durable.docs.encryption;

import javax.sql.DataSource;

import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.payload.EncryptingPayloadConverter;
import dev.durable.workflow.payload.PayloadConverter;
import dev.durable.workflow.test.WorkflowReplayer;

/**
 * The statements of the Java blocks of {@code docs/encryption.md}, each in a method whose
 * parameters are the variables it uses.
 */
final class EncryptionGuideSnippets {

	private EncryptionGuideSnippets() {
	}

	static WorkflowEngine engineWithEncryption(DataSource dataSource, byte[] k2Bytes, byte[] k1Bytes) {
		// @formatter:off
		// snippet:encryption-without-spring
		PayloadConverter converter = EncryptingPayloadConverter.builder()
		    .key("k2", k2Bytes).key("k1", k1Bytes).currentKey("k2")
		    .delegate(PayloadConverter.json())   // the default: the engine's JSON converter
		    .build();
		WorkflowEngine engine = WorkflowEngine.builder().dataSource(dataSource).payloadConverter(converter).build();
		// end-snippet
		// @formatter:on
		return engine;
	}

	static void replayEncodedExport(String json, byte[] k2Bytes) {
		// @formatter:off
		// snippet:encryption-replay
		WorkflowReplayer.replay(OrderWorkflow.class, json, WorkflowReplayer.Options.defaults()
		    .withPayloadConverter(EncryptingPayloadConverter.builder().key("k2", k2Bytes).currentKey("k2").build()));
		// end-snippet
		// @formatter:on
	}

}
