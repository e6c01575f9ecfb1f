package dev.durable.workflow.autoconfigure.web;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanClassLoaderAware;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.util.ClassUtils;

import dev.durable.workflow.web.WebAccess;

/**
 * Warns at startup when the operations of the generated endpoints (signals, updates,
 * cancel, terminate, reset, schedule changes, activity completion) answer to every caller
 * and no Spring Security filter chain is there to guard them, and when a required role is
 * set with no filter chain to authenticate callers.
 */
final class OpenOperationsWarning implements SmartInitializingSingleton, BeanClassLoaderAware {

	private static final Log logger = LogFactory.getLog(OpenOperationsWarning.class);

	private static final String FILTER_CHAIN = "org.springframework.security.web.SecurityFilterChain";

	private final WebAccess access;

	private final ListableBeanFactory beans;

	private @Nullable ClassLoader classLoader;

	OpenOperationsWarning(WebAccess access, ListableBeanFactory beans) {
		this.access = access;
		this.beans = beans;
	}

	@Override
	public void setBeanClassLoader(ClassLoader classLoader) {
		this.classLoader = classLoader;
	}

	@Override
	public void afterSingletonsInstantiated() {
		if (this.access.isReadOnly() || hasSecurityFilterChain()) {
			return;
		}
		String endpoints = this.access.basePath() + "/**";
		if (this.access.operationsOpenToAll()) {
			logger.warn("The workflow operations under " + endpoints + " (signal, update, cancel, terminate, reset,"
					+ " schedule changes, activity completion) are open to every caller: durable.workflow.web"
					+ ".operations-enabled=true and no Spring Security filter chain guards them. Protect them with"
					+ " a SecurityFilterChain and durable.workflow.web.required-role, or turn them off");
		}
		else if (this.access.requiredRole() != null) {
			logger.warn("durable.workflow.web.required-role is set but no Spring Security filter chain"
					+ " authenticates callers: the workflow operations under " + endpoints + " answer 401 unless"
					+ " the servlet container authenticates them");
		}
	}

	private boolean hasSecurityFilterChain() {
		// the application's class loader: Spring Security may be absent from it
		ClassLoader classLoader = (this.classLoader != null) ? this.classLoader : getClass().getClassLoader();
		if (!ClassUtils.isPresent(FILTER_CHAIN, classLoader)) {
			return false;
		}
		return this.beans.getBeanNamesForType(ClassUtils.resolveClassName(FILTER_CHAIN, classLoader), true,
				false).length > 0;
	}

}
