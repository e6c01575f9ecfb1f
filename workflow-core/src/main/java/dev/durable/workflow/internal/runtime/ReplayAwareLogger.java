package dev.durable.workflow.internal.runtime;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A logger proxy that drops every call while the calling workflow replays. */
public final class ReplayAwareLogger {

	private ReplayAwareLogger() {
	}

	public static Logger of(Class<?> type) {
		Logger delegate = LoggerFactory.getLogger(type);
		return (Logger) Proxy.newProxyInstance(Logger.class.getClassLoader(), new Class<?>[] { Logger.class },
				(proxy, method, args) -> {
					boolean quiet = WorkflowThread.isWorkflowThread() && WorkflowThread.runner().isReplaying();
					if (quiet) {
						if (method.getReturnType() == boolean.class) {
							return false;
						}
						if (method.getReturnType() == void.class) {
							return null;
						}
					}
					try {
						return method.invoke(delegate, args);
					}
					catch (InvocationTargetException ex) {
						throw ex.getTargetException();
					}
				});
	}

}
