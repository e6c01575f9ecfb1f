package dev.durable.workflow.web;

import java.util.List;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.durable.workflow.engine.WorkflowEngine;

/**
 * The generated REST endpoint for queues: the flow-control queues of the engine's
 * namespace and the activity task queues with pending work, with what each holds now
 * (read from the database on each request).
 */
@RestController
@RequestMapping("${durable.workflow.web.base-path:/durable}")
public class QueueRestController {

	private final WorkflowEngine engine;

	public QueueRestController(WorkflowEngine engine) {
		this.engine = engine;
	}

	@GetMapping("/queues")
	List<QueueSummary> queues() {
		return QueueSummary.of(this.engine.queues());
	}

}
