package dev.kubeheadroom.kafka.embedded;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** An exclusive OS-level lock on the data directory, held for the broker's life (and a cluster node's). */
public final class DataDirLock {
  private static final Logger LOG = LoggerFactory.getLogger(DataDirLock.class);
  private static final String LOCK_FILE = "embedded-kafka.lock";

  private final Path file;
  private final FileChannel channel;
  private final FileLock lock;

  private DataDirLock(Path file, FileChannel channel, FileLock lock) {
    this.file = file;
    this.channel = channel;
    this.lock = lock;
  }

  public static DataDirLock acquire(Path dataDir) {
    try {
      Files.createDirectories(dataDir);
    } catch (IOException e) {
      throw new EmbeddedKafkaException(
          "Kafka data directory " + dataDir + " cannot be created: " + e, e);
    }
    if (!Files.isDirectory(dataDir) || !Files.isWritable(dataDir)) {
      throw new EmbeddedKafkaException(
          "Kafka data directory " + dataDir + " is not a writable directory");
    }
    Path file = dataDir.resolve(LOCK_FILE);
    FileChannel channel = null;
    try {
      channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock = channel.tryLock();
      if (lock == null) {
        throw inUse(dataDir, null);
      }
      return new DataDirLock(file, channel, lock);
    } catch (OverlappingFileLockException e) {
      closeQuietly(channel);
      throw inUse(dataDir, e);
    } catch (IOException e) {
      closeQuietly(channel);
      throw new EmbeddedKafkaException("cannot lock Kafka data directory " + dataDir + ": " + e, e);
    } catch (EmbeddedKafkaException e) {
      closeQuietly(channel);
      throw e;
    }
  }

  public void release() {
    try {
      lock.release();
    } catch (IOException e) {
      LOG.warn("Cannot release lock {}: {}", file, e.toString());
    } finally {
      closeQuietly(channel);
    }
  }

  private static EmbeddedKafkaException inUse(Path dataDir, Throwable cause) {
    return new EmbeddedKafkaException(
        "Kafka data directory " + dataDir + " is in use by another broker (lock "
            + dataDir.resolve(LOCK_FILE) + " is held); stop it or use another directory",
        cause);
  }

  private static void closeQuietly(FileChannel channel) {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException ignored) {
        // nothing useful to do: the lock goes with the channel
      }
    }
  }
}
