package dev.durable.workflow.autoconfigure.openapi;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.tags.Tag;
import org.springdoc.core.customizers.OpenApiCustomizer;

import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.engine.WorkflowTypeInfo;

/**
 * Describes the generated endpoints in the application's OpenAPI document: springdoc
 * finds the controllers but sees byte-array bodies and maps; this replaces what it
 * inferred with the JSON each endpoint reads and writes, per registered workflow type and
 * handler, the status codes each answers with the problem schema, and hides the dashboard
 * page. Paths that are not below the base path are left as they are.
 */
final class WorkflowApiCustomizer implements OpenApiCustomizer {

	private final WorkflowEngine engine;

	/** The title springdoc gives a document the application did not title. */
	static final String DEFAULT_TITLE = "OpenAPI definition";

	private final String basePath;

	private final String title;

	private final String version;

	/**
	 * @param engine the engine whose workflow types are described
	 * @param basePath the base path of the generated endpoints
	 * @param title the document's title when the application gives none
	 * @param version the document's version when the application gives none
	 */
	WorkflowApiCustomizer(WorkflowEngine engine, String basePath, String title, String version) {
		this.engine = engine;
		this.basePath = basePath;
		this.title = title;
		this.version = version;
	}

	@Override
	public void customise(OpenAPI api) {
		if (api.getPaths() == null) {
			return;
		}
		// the dashboard is an HTML page, not part of the API
		api.getPaths().remove(this.basePath + "/ui");
		api.getPaths().remove(this.basePath + "/ui/");
		api.getPaths().remove(this.basePath + "/ui/{file}");
		// a group of the document without the generated endpoints gets none of their
		// operations
		PathItem start = api.getPaths().get(this.basePath + "/workflows");
		if (start == null || start.getPost() == null) {
			return;
		}
		List<WorkflowTypeInfo> types = this.engine.workflowTypes();
		Schemas schemas = new Schemas(api);
		TypedSchemas typed = new TypedSchemas(schemas, types);
		Schema<?> problem = typed.problem();
		GenericEndpoints generic = new GenericEndpoints(schemas, problem, typed);
		BatchEndpoints batches = new BatchEndpoints(schemas, problem);
		BuildEndpoints builds = new BuildEndpoints(schemas, problem);
		TopicEndpoints topics = new TopicEndpoints(schemas, problem);
		for (Map.Entry<String, PathItem> path : api.getPaths().entrySet()) {
			if (!path.getKey().startsWith(this.basePath + "/")) {
				continue;
			}
			String relative = path.getKey().substring(this.basePath.length());
			for (Map.Entry<PathItem.HttpMethod, Operation> operation : path.getValue().readOperationsMap().entrySet()) {
				String method = operation.getKey().name();
				if (!generic.describe(method, relative, operation.getValue())
						&& !batches.describe(method, relative, operation.getValue())
						&& !builds.describe(method, relative, operation.getValue())) {
					topics.describe(method, relative, operation.getValue());
				}
			}
		}
		new HandlerOperations(schemas, problem, typed).addTo(api.getPaths(), this.basePath, types);
		oneUpdatePath(api, this.basePath);
		removeUnreferenced(api, "SseEmitter");
		addTags(api);
		if (api.getInfo() == null || DEFAULT_TITLE.equals(api.getInfo().getTitle())) {
			// springdoc's placeholder: the application has not titled its document
			api.setInfo(new Info().title(this.title).version(this.version));
		}
	}

	/**
	 * Removes a schema springdoc inferred from a return type that the document replaced
	 * (the stream endpoint's {@code SseEmitter} is text/event-stream): a framework class,
	 * not part of the API. Kept when another operation of the application refers to it.
	 */
	private static void removeUnreferenced(OpenAPI api, String schema) {
		if (api.getComponents() == null || api.getComponents().getSchemas() == null) {
			return;
		}
		// a return type is referred to by a response's content, not nested in a schema
		String ref = "#/components/schemas/" + schema;
		boolean referenced = api.getPaths()
			.values()
			.stream()
			.flatMap((path) -> path.readOperations().stream())
			.filter((operation) -> operation.getResponses() != null)
			.flatMap((operation) -> operation.getResponses().values().stream())
			.filter((response) -> response.getContent() != null)
			.flatMap((response) -> response.getContent().values().stream())
			.anyMatch((media) -> media.getSchema() != null && ref.equals(media.getSchema().get$ref()));
		if (!referenced) {
			api.getComponents().getSchemas().remove(schema);
		}
	}

	/**
	 * The outcome of an update ({@code GET .../updates/{updateId}}) and the update itself
	 * ({@code POST .../updates/{name}}) are one path to OpenAPI 3.1, which allows a path
	 * template once: both are described under {@code {name}}, the GET's being the update
	 * id.
	 */
	private static void oneUpdatePath(OpenAPI api, String basePath) {
		PathItem outcome = api.getPaths().remove(basePath + "/workflows/{workflowId}/updates/{updateId}");
		if (outcome == null || outcome.getGet() == null) {
			return;
		}
		Operation get = outcome.getGet();
		if (get.getParameters() != null) {
			for (Parameter parameter : get.getParameters()) {
				if ("updateId".equals(parameter.getName()) && "path".equals(parameter.getIn())) {
					parameter.setName("name");
					parameter.setDescription("The update's id (the Update-Id of its start)");
				}
			}
		}
		api.getPaths()
			.computeIfAbsent(basePath + "/workflows/{workflowId}/updates/{name}", (key) -> new PathItem())
			.setGet(get);
	}

	private static void addTags(OpenAPI api) {
		List<Tag> tags = (api.getTags() != null) ? new ArrayList<>(api.getTags()) : new ArrayList<>();
		addTag(tags, GenericEndpoints.WORKFLOWS, "Durable workflows: types, runs, signals, queries and updates");
		addTag(tags, GenericEndpoints.SCHEDULES, "Durable schedules");
		addTag(tags, GenericEndpoints.ACTIVITIES, "Completing asynchronous activity attempts by task token");
		addTag(tags, GenericEndpoints.QUEUES, "Flow-control and activity task queues");
		addTag(tags, BuildEndpoints.BUILDS, "Worker versioning: current and ramping builds, drain status, moves");
		addTag(tags, TopicEndpoints.TOPICS, "Events on topics: publish, and the topics with their waiting runs");
		addTag(tags, BatchEndpoints.BATCHES, "Batch operations: cancel, terminate, signal or reset every matching run");
		api.setTags(tags);
	}

	private static void addTag(List<Tag> tags, String name, String description) {
		if (tags.stream().noneMatch((t) -> name.equals(t.getName()))) {
			tags.add(new Tag().name(name).description(description));
		}
	}

}
