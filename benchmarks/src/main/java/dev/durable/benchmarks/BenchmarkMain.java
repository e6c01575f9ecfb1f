package dev.durable.benchmarks;

/** Entry point of the load harness; a placeholder until the harness is written. */
public final class BenchmarkMain {

  private BenchmarkMain() {}

  public static void main(String[] args) {
    System.out.println("""
        usage: java -cp <classpath> dev.durable.benchmarks.BenchmarkMain [options]

        Side-by-side load harness for the durable workflow engine against a peer engine.
        Not implemented yet: no benchmark runs.""");
  }
}
