package dev.durable.workflow.web;

import java.util.List;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Enforces {@link WebAccess} on the generated endpoints, keyed on the handler a request
 * is mapped to, so that no endpoint needs its own check: a {@code GET} is a read, as is a
 * handler marked {@link ReadEndpoint} (a query sent by {@code POST}); a handler marked
 * {@link StartEndpoint} starts runs (refused only in read-only mode); every other handler
 * of the generated controllers is an operation, refused unless
 * {@link WebAccess#checkOperation} allows it. A refusal is thrown and answered by
 * {@link WorkflowProblems} as a problem with a stable code. Other controllers of the
 * application are left alone.
 */
public final class OperationAccessInterceptor implements HandlerInterceptor {

	/** The generated controllers (and any subclass an application registers instead). */
	private static final List<Class<?>> CONTROLLERS = List.of(WorkflowRestController.class,
			WorkflowMessageController.class, ScheduleRestController.class, ActivityCompletionController.class,
			QueueRestController.class, DashboardController.class, BatchRestController.class,
			DebounceRestController.class, OverviewRestController.class, ReplayCheckRestController.class,
			ActivityOperationsRestController.class, BuildRestController.class, TopicRestController.class);

	private final WebAccess access;

	public OperationAccessInterceptor(WebAccess access) {
		this.access = access;
	}

	@Override
	public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
		if (handler instanceof HandlerMethod method && isGenerated(method.getBeanType())) {
			switch (kind(request.getMethod(), method)) {
				case READ -> {
				}
				case START -> this.access.checkWritable();
				case OPERATION -> this.access.checkOperation(request);
			}
		}
		return true;
	}

	/** What a request to a handler of the generated controllers does. */
	enum Kind {

		READ, START, OPERATION

	}

	static Kind kind(String httpMethod, HandlerMethod method) {
		if ("GET".equals(httpMethod) || "HEAD".equals(httpMethod) || "OPTIONS".equals(httpMethod)
				|| AnnotatedElementUtils.hasAnnotation(method.getMethod(), ReadEndpoint.class)) {
			return Kind.READ;
		}
		if (AnnotatedElementUtils.hasAnnotation(method.getMethod(), StartEndpoint.class)) {
			return Kind.START;
		}
		return Kind.OPERATION;
	}

	private static boolean isGenerated(Class<?> beanType) {
		return CONTROLLERS.stream().anyMatch((type) -> type.isAssignableFrom(beanType));
	}

}
