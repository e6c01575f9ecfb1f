package dev.durable.sample.loan;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class LoanApplication {

  public static void main(String[] args) {
    SpringApplication.run(LoanApplication.class, args);
  }
}
