package dev.durable.docs.activities;

/** The implementation of {@link Rendering} on the GPU machines. */
public class GpuRendering implements Rendering {

	@Override
	public String render(String scene) {
		return "rendered " + scene;
	}

}
